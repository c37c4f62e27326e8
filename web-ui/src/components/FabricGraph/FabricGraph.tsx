import cytoscape from 'cytoscape';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { Fabric, LinkState } from '../../api/types';
import { toGraphElements } from '../../domain/graph';
import { edgeTooltip, fabricStyle, toCytoscapeElements, type LinkOverlay } from './cytoscapeModel';
import { drawHeat } from './drawHeat';
import { buildHeatScene, linkAt, linkLines, type HeatScene } from './heatScene';
import './FabricGraph.css';

export interface FabricGraphProps {
  fabric: Fabric;
  linkStates: Record<string, LinkState>;
  /** Load colours, hot marks and the selected job's paths (absent: the plain topology). */
  overlay?: LinkOverlay;
  /** A click on a link (its history) or a switch (its detail). */
  onSelectLink?: (linkId: string) => void;
  onSelectNode?: (nodeId: string) => void;
  /** The node found by search or clicked: marked and brought into view. */
  focusNode?: string | null;
}

interface Tooltip {
  text: string;
  x: number;
  y: number;
}

/**
 * What the canvas shows, read back from the link layer's scene into data attributes of the graph's
 * box: the links on the selected job's paths, the hot, drained, down and chosen ones
 * (space-separated ids), so a browser test or an inspector can read what is drawn without reading
 * pixels. Written only when changed.
 */
function describeLinks(el: HTMLElement | null, scene: HeatScene, links: number) {
  if (!el) return;
  const set = (key: string, value: string) => {
    if (el.dataset[key] !== value) el.dataset[key] = value;
  };
  set('onPath', scene.drawn.onPath.join(' '));
  set('hot', scene.drawn.hot.join(' '));
  set('drained', scene.drawn.drained.join(' '));
  set('down', scene.drawn.down.join(' '));
  set('chosen', scene.drawn.chosen.join(' '));
  set('edges', String(links));
}

/** How far (CSS px) beside a link's drawn edge the pointer still picks it. */
const PICK_SLACK_PX = 4;

/** Above this many nodes + links the canvases trade crispness for speed (one pixel per CSS pixel). */
const LARGE_GRAPH_ELEMENTS = 2000;

/** The fabric drawn with cytoscape (canvas) at the positions domain/graph.ts computes. */
export function FabricGraph({ fabric, linkStates, overlay, onSelectLink, onSelectNode, focusNode }: FabricGraphProps) {
  const container = useRef<HTMLDivElement>(null);
  // Where the read-back data attributes go: never on cytoscape's container, whose attribute
  // changes cytoscape answers with a resize and a full redraw (a MutationObserver).
  const readBack = useRef<HTMLDivElement>(null);
  const [tooltip, setTooltip] = useState<Tooltip | null>(null);
  const graph = useMemo(() => toGraphElements(fabric, linkStates), [fabric, linkStates]);
  const elements = useMemo(() => toCytoscapeElements(graph), [graph]);
  const large = graph.nodes.length + graph.edges.length > LARGE_GRAPH_ELEMENTS;
  const lines = useMemo(() => linkLines(graph), [graph]);
  const scene = useMemo(() => buildHeatScene(lines, overlay), [lines, overlay]);
  const cyRef = useRef<cytoscape.Core | null>(null);
  const heatCanvas = useRef<HTMLCanvasElement>(null);
  const sceneRef = useRef<HeatScene>(scene);
  // One heat draw per animation frame at most: updates arriving faster replace the scene and the
  // frame draws the latest (no update queues behind another).
  const heatFrame = useRef(0);
  const requestHeatDraw = useRef(() => {
    if (heatFrame.current !== 0) return;
    heatFrame.current = requestAnimationFrame(() => {
      heatFrame.current = 0;
      const cy = cyRef.current;
      const canvas = heatCanvas.current;
      const ctx = canvas?.getContext('2d');
      if (!cy || !canvas || !ctx) return;
      drawHeat(ctx, sceneRef.current, {
        zoom: cy.zoom(),
        pan: cy.pan(),
        pixelRatio: canvas.width / Math.max(1, canvas.clientWidth),
        width: canvas.width,
        height: canvas.height,
      });
    });
  });
  // The latest callbacks, read by the handlers registered once per graph.
  const select = useRef({ onSelectLink, onSelectNode });
  useEffect(() => {
    select.current = { onSelectLink, onSelectNode };
  }, [onSelectLink, onSelectNode]);
  // What a hovered edge's tooltip is built from (at hover time, with the latest overlay).
  const edgeById = useMemo(() => new Map(graph.edges.map((e) => [e.id, e])), [graph]);
  const hoverInfo = useRef({ edges: edgeById, overlay, lines });
  useEffect(() => {
    hoverInfo.current = { edges: edgeById, overlay, lines };
  }, [edgeById, overlay, lines]);

  useEffect(() => {
    const box = container.current;
    if (!box) return;
    const cy = cytoscape({
      container: box,
      elements,
      style: fabricStyle,
      layout: { name: 'preset' },
      minZoom: 0.05,
      maxZoom: 4,
      boxSelectionEnabled: false,
      // nodes stay where domain/graph.ts puts them (the link layer draws from those positions)
      autoungrabify: true,
      // Large fabrics: one device pixel per CSS pixel and a cached texture while panning or zooming.
      ...(large ? { pixelRatio: 1, textureOnViewport: true } : {}),
    });
    const canvas = heatCanvas.current;
    const sizeHeat = () => {
      if (!canvas) return;
      const ratio = large ? 1 : window.devicePixelRatio || 1;
      canvas.width = Math.round(box.clientWidth * ratio);
      canvas.height = Math.round(box.clientHeight * ratio);
    };
    sizeHeat();
    const redraw = requestHeatDraw.current;
    cy.on('viewport', redraw);
    // Links are not cytoscape's: the pointer's model position is hit-tested against their lines.
    const pointedLink = (e: cytoscape.EventObject) =>
      e.target === cy ? linkAt(hoverInfo.current.lines, e.position.x, e.position.y, PICK_SLACK_PX / cy.zoom()) : null;
    let hovered: string | null = null;
    cy.on('mousemove', (e) => {
      const link = pointedLink(e);
      if ((link?.id ?? null) === hovered) return;
      hovered = link?.id ?? null;
      if (!link) {
        setTooltip(null);
        return;
      }
      const info = hoverInfo.current.edges.get(link.id) ?? link;
      setTooltip({
        text: edgeTooltip(info, hoverInfo.current.overlay),
        x: e.renderedPosition.x,
        y: e.renderedPosition.y,
      });
    });
    cy.on('mouseout', () => {
      hovered = null;
      setTooltip(null);
    });
    cy.on('tap', (e) => {
      const link = pointedLink(e);
      if (link) select.current.onSelectLink?.(link.id);
    });
    cy.on('tap', 'node', (e) => {
      select.current.onSelectNode?.((e.target as cytoscape.NodeSingular).id());
    });
    cy.fit(undefined, 30);
    cyRef.current = cy;
    redraw();
    // The moment the fabric is drawn and answers input (read by `./weft bench ui`).
    performance.mark('weft:graph-ready', {
      detail: { nodes: cy.nodes().length, edges: hoverInfo.current.lines.length },
    });
    // cytoscape sizes its canvas on window resizes only: panels appearing beside it (the jobs
    // after sign-in) would leave part of the fabric under them.
    const resized = new ResizeObserver(() => {
      cy.resize();
      sizeHeat();
      cy.fit(undefined, 30);
      redraw();
    });
    resized.observe(box);
    return () => {
      resized.disconnect();
      cyRef.current = null;
      cy.destroy();
    };
  }, [elements, large]);

  // Each new scene (up to 10 a second with live loads) is drawn at the next animation frame.
  useEffect(() => {
    sceneRef.current = scene;
    describeLinks(readBack.current, scene, lines.length);
    requestHeatDraw.current();
  }, [scene, lines]);
  useEffect(
    () => () => {
      cancelAnimationFrame(heatFrame.current);
    },
    [],
  );

  useEffect(() => {
    const cy = cyRef.current;
    if (!cy) return;
    cy.nodes('.chosen').removeClass('chosen');
    if (!focusNode) return;
    const node = cy.getElementById(focusNode);
    if (node.empty()) return;
    node.addClass('chosen');
    cy.animate({ center: { eles: node }, zoom: Math.max(cy.zoom(), 1) }, { duration: 300 });
  }, [focusNode, elements]);

  return (
    <div className="fabric-graph" ref={readBack} data-testid="fabric-canvas">
      {/* under cytoscape's transparent canvases: nodes and their labels lie over the links */}
      <canvas ref={heatCanvas} className="fabric-graph__heat" aria-hidden="true" />
      <div
        ref={container}
        className="fabric-graph__canvas"
        role="img"
        aria-label={`Fabric ${fabric.id}: ${fabric.nodes.length} nodes, ${fabric.links.length} links (pick a link by id in the Link panel)`}
      />
      {tooltip && (
        <div className="fabric-graph__tooltip" role="tooltip" style={{ left: tooltip.x + 12, top: tooltip.y + 12 }}>
          {tooltip.text}
        </div>
      )}
    </div>
  );
}
