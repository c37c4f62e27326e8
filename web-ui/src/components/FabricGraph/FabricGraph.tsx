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
    if (!container.current) return;
    const cy = cytoscape({
      container: container.current,
      elements,
      style: fabricStyle,
      layout: { name: 'preset' },
      minZoom: 0.05,
      maxZoom: 4,
      boxSelectionEnabled: false,
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
    return () => {
      cyRef.current = null;
      cy.destroy();
    };
  }, [elements]);

  // Load and selection change often (live loads up to 10 Hz): update in place only the edges whose
  // look changed (no re-layout, zoom kept); `applied` remembers what each edge was last given.
  const applied = useRef(new Map<string, string>());
  useEffect(() => {
    applied.current.clear(); // a new graph: every edge is new
  }, [elements]);
  useEffect(() => {
    const cy = cyRef.current;
    if (!cy) return;
    cy.batch(() => {
      for (const el of overlaid) {
        if (el.group !== 'edges' || !el.data.id) continue;
        const classes = typeof el.classes === 'string' ? el.classes : '';
        const stops = el.data.stopColours as string[] | undefined;
        const look = `${stops?.join('|') ?? ''}#${classes}#${String(el.data.label)}`;
        if (applied.current.get(el.data.id) === look) continue;
        applied.current.set(el.data.id, look);
        const edge = cy.getElementById(el.data.id);
        edge.removeData('stopColours');
        edge.data(el.data);
        edge.classes(classes);
      }
    });
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
      <div ref={container} className="fabric-graph__canvas" aria-label={`Fabric ${fabric.id}`} />
      {tooltip && (
        <div className="fabric-graph__tooltip" role="tooltip" style={{ left: tooltip.x + 12, top: tooltip.y + 12 }}>
          {tooltip.text}
        </div>
      )}
    </div>
  );
}
