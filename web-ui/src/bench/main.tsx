// The UI benchmark's page (bench.html, built with `vite build --mode bench`, never part of the
// dashboard's bundle): the dashboard's own FabricGraph on a fabric the benchmark hands over, then
// a load update of every link direction at a given rate, with frame times measured in the page.
import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import type { Fabric } from '../api/types';
import { FabricGraph } from '../components/FabricGraph/FabricGraph';
import type { LinkOverlay } from '../components/FabricGraph/cytoscapeModel';
import { loadStorm, nextUtilisations, seededRandom, type StormKind } from './loadStorm';
import '../index.css';

export interface StormResult {
  /** The first loads (every link coloured from grey), handed over -> the frame after: measured apart. */
  firstColourMs: number;
  updates: number;
  frames: number[];
  /** Per update: from the new loads handed to React to the end of the next animation frame. */
  updateToFrameMs: number[];
  longTasks: number[];
}

declare global {
  interface Window {
    weftBench?: { storm: (hz: number, seconds: number, kind: StormKind) => Promise<StormResult> };
  }
}

/** Calls back once the next animation frame has been produced. */
function afterFrame(callback: () => void) {
  requestAnimationFrame(() => {
    setTimeout(callback, 0);
  });
}

/** One object for every render: a new one would rebuild the graph (and cytoscape) on each update. */
const NO_LINK_STATES = {};

function Bench({ fabric }: { fabric: Fabric }) {
  const [overlay, setOverlay] = useState<LinkOverlay>({});
  useEffect(() => {
    window.weftBench = {
      storm: (hz, seconds, kind) =>
        new Promise((resolve) => {
          const random = seededRandom(20261127);
          let utilisations: Float64Array | null = null;
          const result: StormResult = { firstColourMs: 0, updates: 0, frames: [], updateToFrameMs: [], longTasks: [] };
          const firstSent = performance.now();
          utilisations = nextUtilisations(null, fabric.links.length * 2, random, kind);
          setOverlay({ loads: loadStorm(fabric, utilisations) });
          afterFrame(() => {
            result.firstColourMs = performance.now() - firstSent;
            run();
          });
          const run = () => {
            const observer = new PerformanceObserver((list) => {
              for (const e of list.getEntries()) result.longTasks.push(e.duration);
            });
            observer.observe({ type: 'longtask' });
            let last = performance.now();
            let running = true;
            const frame = (now: number) => {
              result.frames.push(now - last);
              last = now;
              if (running) requestAnimationFrame(frame);
            };
            requestAnimationFrame(frame);
            const timer = setInterval(() => {
              const sent = performance.now();
              utilisations = nextUtilisations(utilisations, fabric.links.length * 2, random, kind);
              setOverlay({ loads: loadStorm(fabric, utilisations) });
              result.updates++;
              afterFrame(() => result.updateToFrameMs.push(performance.now() - sent));
            }, 1000 / hz);
            setTimeout(() => {
              clearInterval(timer);
              running = false;
              observer.disconnect();
              resolve(result);
            }, seconds * 1000);
          };
        }),
    };
  }, [fabric]);
  return <FabricGraph fabric={fabric} linkStates={NO_LINK_STATES} overlay={overlay} />;
}

const root = document.getElementById('root');
if (!root) throw new Error('bench.html has no #root element');
// The fabric file the benchmark serves (a generated k=16 fat-tree, say).
void fetch('/bench/fabric.json')
  .then((r) => r.json() as Promise<Fabric>)
  .then((fabric) => {
    createRoot(root).render(
      <StrictMode>
        <Bench fabric={fabric} />
      </StrictMode>,
    );
  });
