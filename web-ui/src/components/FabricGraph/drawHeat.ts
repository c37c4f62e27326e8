// Draws a heat scene (heatScene.ts) on the canvas laid under cytoscape's, with cytoscape's pan and
// zoom: one path and one stroke() per group of strokes sharing a look.
import type { HeatScene } from './heatScene';

export interface Viewport {
  zoom: number;
  pan: { x: number; y: number };
  /** Device pixels per CSS pixel of the canvas. */
  pixelRatio: number;
  /** The canvas's size in device pixels. */
  width: number;
  height: number;
}

/** Labels smaller than this on screen are not drawn (cytoscape's min-zoomed-font-size). */
const LABEL_FONT_PX = 9;
const MIN_LABEL_PX = 7;

/** The subset of CanvasRenderingContext2D the heat layer uses (a test records the calls). */
export type HeatContext = Pick<
  CanvasRenderingContext2D,
  | 'setTransform'
  | 'clearRect'
  | 'beginPath'
  | 'moveTo'
  | 'lineTo'
  | 'stroke'
  | 'setLineDash'
  | 'fillRect'
  | 'fillText'
  | 'measureText'
  | 'globalAlpha'
  | 'strokeStyle'
  | 'fillStyle'
  | 'lineWidth'
  | 'lineCap'
  | 'font'
  | 'textAlign'
  | 'textBaseline'
>;

export function drawHeat(ctx: HeatContext, scene: HeatScene, v: Viewport): void {
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.clearRect(0, 0, v.width, v.height);
  const scale = v.pixelRatio * v.zoom;
  ctx.setTransform(scale, 0, 0, scale, v.pixelRatio * v.pan.x, v.pixelRatio * v.pan.y);
  ctx.lineCap = 'butt';
  for (const s of scene.strokes) {
    ctx.globalAlpha = s.alpha;
    ctx.strokeStyle = s.colour;
    ctx.lineWidth = s.widthPx;
    ctx.setLineDash(s.dash);
    ctx.beginPath();
    const p = s.segments;
    for (let i = 0; i + 3 < p.length; i += 4) {
      ctx.moveTo(p[i] ?? 0, p[i + 1] ?? 0);
      ctx.lineTo(p[i + 2] ?? 0, p[i + 3] ?? 0);
    }
    ctx.stroke();
  }
  ctx.setLineDash([]);
  if (scene.labels.length > 0 && LABEL_FONT_PX * v.zoom >= MIN_LABEL_PX) {
    ctx.font = `${LABEL_FONT_PX}px sans-serif`;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    for (const l of scene.labels) {
      const w = ctx.measureText(l.text).width + 2;
      ctx.globalAlpha = 0.8 * l.alpha;
      ctx.fillStyle = '#ffffff';
      ctx.fillRect(l.x - w / 2, l.y - LABEL_FONT_PX / 2 - 1, w, LABEL_FONT_PX + 2);
      ctx.globalAlpha = l.alpha;
      ctx.fillStyle = '#000000';
      ctx.fillText(l.text, l.x, l.y);
    }
  }
  ctx.globalAlpha = 1;
}
