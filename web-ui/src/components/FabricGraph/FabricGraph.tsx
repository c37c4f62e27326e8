import cytoscape from 'cytoscape';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { Fabric, LinkState } from '../../api/types';
import { toGraphElements } from '../../domain/graph';
import { edgeTooltip, fabricStyle, toCytoscapeElements, type LinkOverlay } from './cytoscapeModel';
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
 * What the canvas shows, read back from cytoscape into data attributes of its container: the
 * links on the selected job's paths, the hot, drained and down ones (space-separated ids), so
 * a browser test or an inspector can read what is drawn without reading pixels.
 */
function describeEdges(cy: cytoscape.Core, el: HTMLElement | null) {
  if (!el) return;
  const ids = (sel: string) =>
    cy
      .edges(sel)
      .map((e) => e.id())
      .join(' ');
  el.dataset.onPath = ids('.on-path');
  el.dataset.hot = ids('.hot');
  el.dataset.drained = ids('[state = "drained"]');
  el.dataset.down = ids('[state = "down"]');
  el.dataset.chosen = ids('.chosen');
  el.dataset.edges = String(cy.edges().length);
}

/** How many changed edges are handed to cytoscape per animation frame (~20-40 ms of style work). */
const EDGES_PER_FRAME = 300;

/** Above this many nodes + edges cytoscape is told to trade crispness for speed. */
const LARGE_GRAPH_ELEMENTS = 2000;

/** The fabric drawn with cytoscape (canvas) at the positions domain/graph.ts computes. */
export function FabricGraph({ fabric, linkStates, overlay, onSelectLink, onSelectNode, focusNode }: FabricGraphProps) {
  const container = useRef<HTMLDivElement>(null);
  const [tooltip, setTooltip] = useState<Tooltip | null>(null);
  const graph = useMemo(() => toGraphElements(fabric, linkStates), [fabric, linkStates]);
  const elements = useMemo(() => toCytoscapeElements(graph), [graph]);
  const overlaid = useMemo(() => toCytoscapeElements(graph, overlay), [graph, overlay]);
  const cyRef = useRef<cytoscape.Core | null>(null);
  // The latest callbacks, read by the handlers registered once per graph.
  const select = useRef({ onSelectLink, onSelectNode });
  useEffect(() => {
    select.current = { onSelectLink, onSelectNode };
  }, [onSelectLink, onSelectNode]);
  // What a hovered edge's tooltip is built from (at hover time, with the latest overlay).
  const hoverInfo = useRef({ edges: new Map(graph.edges.map((e) => [e.id, e])), overlay });
  useEffect(() => {
    hoverInfo.current = { edges: new Map(graph.edges.map((e) => [e.id, e])), overlay };
  }, [graph, overlay]);

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
      // Large fabrics: one device pixel per CSS pixel and a cached texture while panning or
      // zooming, so thousands of gradient edges are not redrawn on every move.
      ...(elements.length > LARGE_GRAPH_ELEMENTS
        ? { pixelRatio: 1, textureOnViewport: true, hideEdgesOnViewport: true }
        : {}),
    });
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
    describeEdges(cy, container.current);
    // The moment the fabric is drawn and answers input (read by `./weft bench ui`).
    performance.mark('weft:graph-ready', { detail: { nodes: cy.nodes().length, edges: cy.edges().length } });
    // cytoscape sizes its canvas on window resizes only: panels appearing beside it (the jobs
    // after sign-in) would leave part of the fabric under them.
    const resized = new ResizeObserver(() => {
      cy.resize();
      cy.fit(undefined, 30);
    });
    resized.observe(box);
    return () => {
      resized.disconnect();
      cyRef.current = null;
      cy.destroy();
    };
  }, [elements]);

  // Load and selection change often (live loads up to 10 Hz): update in place only the edges whose
  // look changed (no re-layout, zoom kept; each touch costs cytoscape a style pass); `applied`
  // remembers what each edge was last given. At most EDGES_PER_FRAME edges per animation frame,
  // so a large fabric's update never freezes the page; a newer overlay replaces what is still
  // pending (latest wins).
  const applied = useRef(new Map<string, string>());
  useEffect(() => {
    applied.current.clear(); // a new graph: every edge is new
  }, [elements]);
  useEffect(() => {
    const cy = cyRef.current;
    if (!cy) return;
    const last = applied.current;
    const pending: [string, string, (typeof overlaid)[number]][] = [];
    for (const el of overlaid) {
      const id = el.data.id;
      if (el.group !== 'edges' || !id) continue;
      const classes = typeof el.classes === 'string' ? el.classes : '';
      const stops = el.data.stopColours as string[] | undefined;
      const look = `${stops?.join('|') ?? ''}#${classes}#${String(el.data.label)}#${String(el.data.state)}`;
      if (last.get(id) !== look) pending.push([id, look, el]);
    }
    let frame = 0;
    const applyChunk = () => {
      const chunk = pending.splice(0, EDGES_PER_FRAME);
      cy.batch(() => {
        for (const [id, look, el] of chunk) {
          last.set(id, look);
          const edge = cy.getElementById(id);
          edge.removeData('stopColours');
          edge.data(el.data);
          edge.classes(typeof el.classes === 'string' ? el.classes : '');
        }
      });
      if (pending.length > 0) frame = requestAnimationFrame(applyChunk);
      else describeEdges(cy, container.current);
    };
    applyChunk();
    return () => {
      cancelAnimationFrame(frame);
    };
  }, [overlaid]);

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
    <div className="fabric-graph">
      <div
        ref={container}
        className="fabric-graph__canvas"
        role="img"
        aria-label={`Fabric ${fabric.id}: ${fabric.nodes.length} nodes, ${fabric.links.length} links (pick a link by id in the Link panel)`}
        data-testid="fabric-canvas"
      />
      {tooltip && (
        <div className="fabric-graph__tooltip" role="tooltip" style={{ left: tooltip.x + 12, top: tooltip.y + 12 }}>
          {tooltip.text}
        </div>
      )}
    </div>
  );
}
