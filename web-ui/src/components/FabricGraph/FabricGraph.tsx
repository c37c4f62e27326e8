import cytoscape from 'cytoscape';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { Fabric, LinkState } from '../../api/types';
import { toGraphElements } from '../../domain/graph';
import { fabricStyle, toCytoscapeElements } from './cytoscapeModel';
import './FabricGraph.css';

export interface FabricGraphProps {
  fabric: Fabric;
  linkStates: Record<string, LinkState>;
}

interface Tooltip {
  text: string;
  x: number;
  y: number;
}

/** The fabric drawn with cytoscape (canvas) at the positions domain/graph.ts computes. */
export function FabricGraph({ fabric, linkStates }: FabricGraphProps) {
  const container = useRef<HTMLDivElement>(null);
  const [tooltip, setTooltip] = useState<Tooltip | null>(null);
  const elements = useMemo(() => toCytoscapeElements(toGraphElements(fabric, linkStates)), [fabric, linkStates]);

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
      setTooltip({ text: String(edge.data('tooltip')), x: e.renderedPosition.x, y: e.renderedPosition.y });
    });
    cy.on('mouseout', 'edge', (e) => {
      (e.target as cytoscape.EdgeSingular).removeClass('hover');
      setTooltip(null);
    });
    cy.fit(undefined, 30);
    return () => {
      cy.destroy();
    };
  }, [elements]);

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
