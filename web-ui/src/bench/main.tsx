// The UI benchmark's page (bench.html, built with `vite build --mode bench`, never part of the
// dashboard's bundle): the dashboard's own FabricGraph on a fabric the benchmark hands over, then
// a load update of every link direction at a given rate, with frame times measured in the page.
import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import type { Fabric } from '../api/types';
import { FabricGraph } from '../components/FabricGraph/FabricGraph';
import type { LinkOverlay } from '../components/FabricGraph/cytoscapeModel';
import { loadStorm, seededRandom } from './loadStorm';
import '../index.css';

export interface StormResult {
  updates: number;
  frames: number[];
  /** Per update: from the new loads handed to React to the end of the next animation frame. */
  updateToFrameMs: number[];
  longTasks: number[];
}

declare global {
  interface Window {
    weftBench?: { storm: (hz: number, seconds: number) => Promise<StormResult> };
  }
}

function Bench({ fabric }: { fabric: Fabric }) {
  const [overlay, setOverlay] = useState<LinkOverlay>({});
  useEffect(() => {
    window.weftBench = {
      storm: (hz, seconds) =>
        new Promise((resolve) => {
          const random = seededRandom(20261127);
          const result: StormResult = { updates: 0, frames: [], updateToFrameMs: [], longTasks: [] };
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
            setOverlay({ loads: loadStorm(fabric, random) });
            result.updates++;
            requestAnimationFrame(() => {
              setTimeout(() => result.updateToFrameMs.push(performance.now() - sent), 0);
            });
          }, 1000 / hz);
          setTimeout(() => {
            clearInterval(timer);
            running = false;
            observer.disconnect();
            resolve(result);
          }, seconds * 1000);
        }),
    };
  }, [fabric]);
  return <FabricGraph fabric={fabric} linkStates={{}} overlay={overlay} />;
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
