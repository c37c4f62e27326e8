import cytoscape from 'cytoscape';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { Fabric, LinkState } from '../../api/types';
import { toGraphElements } from '../../domain/graph';
import { edgeClasses, edgeTooltip, fabricStyle, toCytoscapeElements, type LinkOverlay } from './cytoscapeModel';
import { drawHeat } from './drawHeat';
import { buildHeatScene, type HeatScene } from './heatScene';
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
 * What the canvas shows, read back from cytoscape into data attributes of the graph's box: the
 * links on the selected job's paths, the drained and down ones (space-separated ids; the hot ones
 * come from the heat layer), so a browser test or an inspector can read what is drawn without
 * reading pixels.
 */
function describeEdges(cy: cytoscape.Core, el: HTMLElement | null) {
  if (!el) return;
  const ids = (sel: string) =>
    cy
      .edges(sel)
      .map((e) => e.id())
      .join(' ');
  el.dataset.onPath = ids('.on-path');
  el.dataset.drained = ids('[state = "drained"]');
  el.dataset.down = ids('[state = "down"]');
  el.dataset.chosen = ids('.chosen');
  el.dataset.edges = String(cy.edges().length);
}

/** Above this many nodes + edges cytoscape is told to trade crispness for speed. */
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
  const large = elements.length > LARGE_GRAPH_ELEMENTS;
  // cytoscape's part of the overlay: selection only, so a load update does not touch it
  const highlighted = overlay?.highlighted;
  const selectedLink = overlay?.selectedLink;
  const classes = useMemo(
    () => graph.edges.map((e) => [e.id, edgeClasses(e, { highlighted, selectedLink })] as const),
    [graph, highlighted, selectedLink],
  );
  // the heat layer's part: everything that follows the live load
  const scene = useMemo(() => buildHeatScene(graph, overlay), [graph, overlay]);
  const cyRef = useRef<cytoscape.Core | null>(null);
  // The classes each edge of the current cytoscape instance was last given.
  const applied = useRef(new Map<string, string>());
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
  const hoverInfo = useRef({ edges: edgeById, overlay });
  useEffect(() => {
    hoverInfo.current = { edges: edgeById, overlay };
  }, [edgeById, overlay]);

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
      // nodes stay where domain/graph.ts puts them (the heat layer draws from those positions)
      autoungrabify: true,
      // Large fabrics: one device pixel per CSS pixel and a cached texture while panning or
      // zooming, so thousands of edges are not redrawn on every move.
      ...(large ? { pixelRatio: 1, textureOnViewport: true, hideEdgesOnViewport: true } : {}),
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
    // cytoscape types an event's target as any; the 'edge' selector makes it an edge.
    cy.on('mouseover', 'edge', (e) => {
      const edge = e.target as cytoscape.EdgeSingular;
      edge.addClass('hover');
      const info = hoverInfo.current.edges.get(edge.id());
      const text = info ? edgeTooltip(info, hoverInfo.current.overlay) : edge.id();
      setTooltip({ text, x: e.renderedPosition.x, y: e.renderedPosition.y });
    });
    cy.on('mouseout', 'edge', (e) => {
      (e.target as cytoscape.EdgeSingular).removeClass('hover');
      setTooltip(null);
    });
    cy.on('tap', 'edge', (e) => {
      select.current.onSelectLink?.((e.target as cytoscape.EdgeSingular).id());
    });
    cy.on('tap', 'node', (e) => {
      select.current.onSelectNode?.((e.target as cytoscape.NodeSingular).id());
    });
    cy.fit(undefined, 30);
    cyRef.current = cy;
    applied.current.clear(); // a new graph: every edge is new
    describeEdges(cy, readBack.current);
    redraw();
    // The moment the fabric is drawn and answers input (read by `./weft bench ui`).
    performance.mark('weft:graph-ready', { detail: { nodes: cy.nodes().length, edges: cy.edges().length } });
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

  // A new selection (a job's paths, the chosen link): only the edges whose classes changed are
  // touched, in one batch.
  useEffect(() => {
    const cy = cyRef.current;
    if (!cy) return;
    const last = applied.current;
    cy.batch(() => {
      for (const [id, cls] of classes) {
        if ((last.get(id) ?? '') === cls) continue;
        last.set(id, cls);
        cy.getElementById(id).classes(cls);
      }
    });
    describeEdges(cy, readBack.current);
  }, [classes, elements]);

  // Each new scene (up to 10 a second with live loads) is drawn at the next animation frame.
  useEffect(() => {
    sceneRef.current = scene;
    const el = readBack.current;
    const hot = scene.hot.join(' ');
    if (el && el.dataset.hot !== hot) el.dataset.hot = hot;
    requestHeatDraw.current();
  }, [scene]);
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
      <div
        ref={container}
        className="fabric-graph__canvas"
        role="img"
        aria-label={`Fabric ${fabric.id}: ${fabric.nodes.length} nodes, ${fabric.links.length} links (pick a link by id in the Link panel)`}
      />
      <canvas ref={heatCanvas} className="fabric-graph__heat" aria-hidden="true" />
      {tooltip && (
        <div className="fabric-graph__tooltip" role="tooltip" style={{ left: tooltip.x + 12, top: tooltip.y + 12 }}>
          {tooltip.text}
        </div>
      )}
    </div>
  );
}
