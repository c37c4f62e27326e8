import cytoscape, { type ElementDefinition } from 'cytoscape';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { Fabric, LinkState } from '../../api/types';
import { toGraphElements } from '../../domain/graph';
import { fabricStyle, toCytoscapeElements, type LinkOverlay } from './cytoscapeModel';
import './FabricGraph.css';

export interface FabricGraphProps {
  fabric: Fabric;
  linkStates: Record<string, LinkState>;
  /** Load colours, hot marks and the selected job's paths (absent: the plain topology). */
  overlay?: LinkOverlay;
  /** The link the operator picked (outlined); clicking a link picks it. */
  selectedLinkId?: string | null;
  onSelectLink?: (id: string) => void;
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
  el.dataset.edges = String(cy.edges().length);
}

/** How many changed edges are handed to cytoscape per animation frame (~20-40 ms of style work). */
const EDGES_PER_FRAME = 300;

/** Above this many nodes + edges cytoscape is told to trade crispness for speed. */
const LARGE_GRAPH_ELEMENTS = 2000;

/** The fabric drawn with cytoscape (canvas) at the positions domain/graph.ts computes. */
export function FabricGraph({ fabric, linkStates, overlay, selectedLinkId = null, onSelectLink }: FabricGraphProps) {
  const container = useRef<HTMLDivElement>(null);
  const [tooltip, setTooltip] = useState<Tooltip | null>(null);
  const graph = useMemo(() => toGraphElements(fabric, linkStates), [fabric, linkStates]);
  const elements = useMemo(() => toCytoscapeElements(graph), [graph]);
  const overlaid = useMemo(() => toCytoscapeElements(graph, overlay), [graph, overlay]);
  const cyRef = useRef<cytoscape.Core | null>(null);
  /** Per edge, what was last handed to cytoscape (colours, classes, state). */
  const applied = useRef(new Map<string, string>());
  /** Per edge, its tooltip for the current overlay (read on hover). */
  const tooltips = useRef(new Map<string, string>());
  // Read at click time, so a new callback does not rebuild the graph.
  const onSelectRef = useRef(onSelectLink);
  useEffect(() => {
    onSelectRef.current = onSelectLink;
  }, [onSelectLink]);

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
    applied.current = new Map();
    // cytoscape types an event's target as any; the 'edge' selector makes it an edge.
    cy.on('mouseover', 'edge', (e) => {
      const edge = e.target as cytoscape.EdgeSingular;
      edge.addClass('hover');
      const text = tooltips.current.get(edge.id()) ?? String(edge.data('tooltip'));
      setTooltip({ text, x: e.renderedPosition.x, y: e.renderedPosition.y });
    });
    cy.on('mouseout', 'edge', (e) => {
      (e.target as cytoscape.EdgeSingular).removeClass('hover');
      setTooltip(null);
    });
    cy.on('tap', 'edge', (e) => {
      onSelectRef.current?.((e.target as cytoscape.EdgeSingular).id());
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

  // Load and selection change often: update the edges in place (no re-layout, zoom kept). Only
  // edges whose drawing changed are touched (each touch costs cytoscape a style pass), at most
  // EDGES_PER_FRAME per animation frame so a large fabric's update never freezes the page; a newer
  // overlay replaces what is still pending (latest wins). Tooltips are read on hover, not pushed.
  useEffect(() => {
    const cy = cyRef.current;
    if (!cy) return;
    const last = applied.current;
    const tips = tooltips.current;
    const pending: [string, string, ElementDefinition][] = [];
    for (const el of overlaid) {
      const id = el.data.id;
      if (el.group !== 'edges' || !id) continue;
      tips.set(id, String(el.data.tooltip));
      const classes = typeof el.classes === 'string' ? el.classes : '';
      const stops = el.data.stopColours as string[] | undefined;
      const drawn = `${stops?.join(';') ?? ''}|${classes}|${String(el.data.state)}`;
      if (last.get(id) !== drawn) pending.push([id, drawn, el]);
    }
    let frame = 0;
    const applyChunk = () => {
      const chunk = pending.splice(0, EDGES_PER_FRAME);
      cy.batch(() => {
        for (const [id, drawn, el] of chunk) {
          last.set(id, drawn);
          const edge = cy.getElementById(id);
          const { stopColours, state } = el.data as { stopColours?: string[]; state?: string };
          if (stopColours) edge.data({ stopColours, state });
          else {
            edge.removeData('stopColours');
            edge.data('state', state);
          }
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
    cy.batch(() => {
      cy.edges('.picked').removeClass('picked');
      if (selectedLinkId) cy.getElementById(selectedLinkId).addClass('picked');
    });
  }, [selectedLinkId, overlaid]);

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
