package io.weft.simulator.scenario;

import java.util.List;

import io.weft.plan.FabricPlan;
import io.weft.simulator.EcmpHasher;
import io.weft.simulator.FlowSpec;
import io.weft.simulator.LinkEvent;
import io.weft.simulator.Simulation;
import io.weft.simulator.SimulationException;

/**
 * A validated scenario: the planned fabric, the flows, the link events, the ECMP seed and when to
 * stop. Everything in it was checked by {@link ScenarioReader}, flows walked included, so
 * {@link #simulation()} cannot fail.
 *
 * @param endS when to stop (Double.POSITIVE_INFINITY: when nothing can change any more)
 */
public record Scenario(FabricPlan plan, long ecmpSeed, double endS, List<FlowSpec> flows, List<LinkEvent> events) {
    public Scenario {
        flows = List.copyOf(flows);
        events = List.copyOf(events);
    }

    /** A fresh simulation at time 0 with every flow and event of the scenario. */
    public Simulation simulation() {
        try {
            return build(this);
        } catch (ScenarioException e) {
            throw new IllegalStateException("a validated scenario was refused: " + e.getMessage(), e);
        }
    }

    /** Builds the simulation, naming the flow or event (flows[i], events[i]) a refusal is about. */
    static Simulation build(Scenario s) throws ScenarioException {
        Simulation sim = new Simulation(s.plan(), new EcmpHasher(s.ecmpSeed()));
        for (int i = 0; i < s.flows().size(); i++) {
            try {
                sim.addFlow(s.flows().get(i));
            } catch (SimulationException e) {
                throw new ScenarioException("flows[" + i + "]." + routingField(e.getMessage()));
            }
        }
        for (int i = 0; i < s.events().size(); i++) {
            try {
                sim.schedule(s.events().get(i));
            } catch (SimulationException e) {
                throw new ScenarioException("events[" + i + "]." + e.getMessage());
            }
        }
        return sim;
    }

    /** The simulation names carriers / ev / srcPort bare; in the file they sit under "routing". */
    private static String routingField(String message) {
        for (String f : List.of("carriers:", "ev:", "srcPort:", "routing:")) {
            if (message.startsWith(f)) {
                return f.equals("routing:") ? message : "routing." + message;
            }
        }
        return message;
    }
}
