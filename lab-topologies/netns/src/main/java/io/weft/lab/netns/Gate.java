package io.weft.lab.netns;

/**
 * Lets work run until it is closed; {@link #close()} waits for the work already running. The lab's
 * interrupt cleanup closes the gate of agent starts before it looks for agents to stop, so that no
 * agent can start behind its back (seen: a lab stopped mid-build left 7 of 20 agents running).
 */
final class Gate {
    /** Runs one step, or nothing once closed. */
    interface Step {
        void run() throws LabException;
    }

    private boolean closed;
    private int running;

    void run(Step step) throws LabException {
        synchronized (this) {
            if (closed) {
                throw new LabException("the lab is being removed (interrupted)");
            }
            running++;
        }
        try {
            step.run();
        } finally {
            synchronized (this) {
                running--;
                notifyAll();
            }
        }
    }

    /** Refuses new work and waits (up to a minute) for what is running. */
    synchronized void close() {
        closed = true;
        long end = System.nanoTime() + 60_000_000_000L;
        while (running > 0 && System.nanoTime() < end) {
            try {
                wait(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
