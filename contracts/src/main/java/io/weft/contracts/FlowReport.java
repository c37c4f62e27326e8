package io.weft.contracts;

import java.io.IOException;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * What one NIC agent saw of its own flows at one instant (contracts/schemas/flow-report.schema.json):
 * the body of {@code POST /v1/agents/{nic}/reports} and the value of {@value Topics#TELEMETRY_FLOWS}
 * keyed by NIC id. Counters are cumulative unsigned 64-bit values (decimal strings in JSON).
 *
 * <p>Final value classes rather than records: this jar is Java 11 bytecode because the ONOS 2.7 app
 * (Java 11) embeds it.
 */
public final class FlowReport implements TopicValue {
    public static final int SCHEMA_VERSION = 1;

    private final String nic;
    private final long timestampNs;
    private final List<Flow> flows;
    private final List<Rejection> rejected;

    /** @param rejected the profile entries the agent refused; empty when none (then not written) */
    public FlowReport(String nic, long timestampNs, List<Flow> flows, List<Rejection> rejected) {
        this.nic = Objects.requireNonNull(nic, "nic");
        this.timestampNs = timestampNs;
        this.flows = List.copyOf(flows);
        this.rejected = rejected == null ? List.of() : List.copyOf(rejected);
    }

    /** Reads one report strictly; the ContractException's message names the field ({@code flows[0].bytes}). */
    public static FlowReport fromJson(String json) {
        return fromTree(Strict.parse(json));
    }

    /** Reads one report strictly; the ContractException's message names the field ({@code flows[0].bytes}). */
    public static FlowReport fromJson(byte[] json) {
        return fromTree(Strict.parse(json));
    }

    /** Reads one parsed report strictly (Jackson 2 tree). */
    public static FlowReport fromTree(JsonNode node) {
        return Strict.value(node, SCHEMA_VERSION, o -> {
            String nic = o.id("nic");
            long ts = o.uint64("timestampNs");
            List<Flow> flows = o.objects("flows", Flow::read);
            List<Rejection> rejected = o.optionalObjects("rejected", Rejection::read);
            return new FlowReport(nic, ts, flows, rejected);
        });
    }

    public String nic() {
        return nic;
    }

    /** Nanoseconds since the epoch, unsigned. */
    public long timestampNs() {
        return timestampNs;
    }

    public List<Flow> flows() {
        return flows;
    }

    public List<Rejection> rejected() {
        return rejected;
    }

    /** The same report without its rejections. */
    public FlowReport withoutRejections() {
        return new FlowReport(nic, timestampNs, flows, List.of());
    }

    /** The record key on {@value Topics#TELEMETRY_FLOWS}: the NIC id. */
    @Override
    public String key() {
        return nic;
    }

    @Override
    public void write(JsonGenerator g) throws IOException {
        g.writeStartObject();
        g.writeNumberField("schemaVersion", SCHEMA_VERSION);
        g.writeStringField("nic", nic);
        g.writeStringField("timestampNs", Long.toUnsignedString(timestampNs));
        g.writeArrayFieldStart("flows");
        for (Flow f : flows) {
            f.write(g);
        }
        g.writeEndArray();
        if (!rejected.isEmpty()) {
            g.writeArrayFieldStart("rejected");
            for (Rejection r : rejected) {
                r.write(g);
            }
            g.writeEndArray();
        }
        g.writeEndObject();
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof FlowReport)) {
            return false;
        }
        FlowReport r = (FlowReport) o;
        return r.nic.equals(nic) && r.timestampNs == timestampNs && r.flows.equals(flows)
                && r.rejected.equals(rejected);
    }

    @Override
    public int hashCode() {
        return Objects.hash(nic, timestampNs, flows, rejected);
    }

    @Override
    public String toString() {
        return "FlowReport[nic=" + nic + " timestampNs=" + Long.toUnsignedString(timestampNs) + " flows=" + flows
                + " rejected=" + rejected + "]";
    }

    /** One flow of the NIC; sent either with an entropy value ({@code ev}) or a uSID carrier. */
    public static final class Flow {
        private static final Pattern CARRIER = Pattern.compile("[0-9a-f:]+");

        private final String flowId;
        private final String jobId;
        private final String dstNic;
        private final Integer ev;
        private final String carrier;
        private final long bytes;
        private final double rateGbps;
        private final long ecnMarked;
        private final long cnpCount;
        private final double rttUs;
        private final long drops;

        /**
         * Exactly one of {@code ev} and {@code carrier} is non-null.
         *
         * @param jobId null when the flow belongs to no job
         * @param rttUs NaN when unknown
         */
        public Flow(String flowId, String jobId, String dstNic, Integer ev, String carrier, long bytes,
                    double rateGbps, long ecnMarked, long cnpCount, double rttUs, long drops) {
            this.flowId = Objects.requireNonNull(flowId, "flowId");
            this.jobId = jobId;
            this.dstNic = Objects.requireNonNull(dstNic, "dstNic");
            if ((ev == null) == (carrier == null)) {
                throw new IllegalArgumentException("flow " + flowId + ": exactly one of ev and carrier");
            }
            this.ev = ev;
            this.carrier = carrier;
            this.bytes = bytes;
            this.rateGbps = rateGbps;
            this.ecnMarked = ecnMarked;
            this.cnpCount = cnpCount;
            this.rttUs = rttUs;
            this.drops = drops;
        }

        static Flow read(Strict o) {
            String flowId = o.string("flowId", 1);
            String jobId = o.optionalString("jobId", 1);
            String dstNic = o.id("dstNic");
            boolean hasEv = o.has("ev");
            if (hasEv == o.has("carrier")) {
                throw new ContractException(o.at(hasEv ? "carrier" : "ev"),
                        "exactly one of ev and carrier is required");
            }
            Integer ev = o.optionalInt("ev", 0, 65535);
            String carrier = o.optionalString("carrier", 1);
            if (hasEv && ev == null) {
                throw new ContractException(o.at("ev"), "must be an integer in 0..65535 (got null)");
            }
            if (!hasEv && (carrier == null || !CARRIER.matcher(carrier).matches())) {
                throw new ContractException(o.at("carrier"), "must be a lowercase IPv6 address (got "
                        + Strict.quote(carrier) + ")");
            }
            long bytes = o.uint64("bytes");
            double rate = o.number("rateGbps", 0, false, Double.POSITIVE_INFINITY);
            long ecn = o.uint64("ecnMarked");
            long cnp = o.uint64("cnpCount");
            double rtt = o.optionalNumber("rttUs", 0, Double.POSITIVE_INFINITY);
            long drops = o.uint64("drops");
            o.done();
            return new Flow(flowId, jobId, dstNic, ev, carrier, bytes, rate, ecn, cnp, rtt, drops);
        }

        void write(JsonGenerator g) throws IOException {
            g.writeStartObject();
            g.writeStringField("flowId", flowId);
            if (jobId != null) {
                g.writeStringField("jobId", jobId);
            }
            g.writeStringField("dstNic", dstNic);
            if (ev != null) {
                g.writeNumberField("ev", ev);
            } else {
                g.writeStringField("carrier", carrier);
            }
            g.writeStringField("bytes", Long.toUnsignedString(bytes));
            g.writeNumberField("rateGbps", rateGbps);
            g.writeStringField("ecnMarked", Long.toUnsignedString(ecnMarked));
            g.writeStringField("cnpCount", Long.toUnsignedString(cnpCount));
            if (!Double.isNaN(rttUs)) {
                g.writeNumberField("rttUs", rttUs);
            }
            g.writeStringField("drops", Long.toUnsignedString(drops));
            g.writeEndObject();
        }

        public String flowId() {
            return flowId;
        }

        public String jobId() {
            return jobId;
        }

        public String dstNic() {
            return dstNic;
        }

        /** The entropy value (RoCEv2 UDP source port) in EV mode, else null. */
        public Integer ev() {
            return ev;
        }

        /** The first uSID carrier in SRv6 mode, else null. */
        public String carrier() {
            return carrier;
        }

        public long bytes() {
            return bytes;
        }

        public double rateGbps() {
            return rateGbps;
        }

        public long ecnMarked() {
            return ecnMarked;
        }

        public long cnpCount() {
            return cnpCount;
        }

        /** NaN when unknown. */
        public double rttUs() {
            return rttUs;
        }

        public long drops() {
            return drops;
        }

        @Override
        public boolean equals(Object o) {
            if (!(o instanceof Flow)) {
                return false;
            }
            Flow f = (Flow) o;
            return flowId.equals(f.flowId) && Objects.equals(jobId, f.jobId) && dstNic.equals(f.dstNic)
                    && Objects.equals(ev, f.ev) && Objects.equals(carrier, f.carrier) && bytes == f.bytes
                    && Double.compare(rateGbps, f.rateGbps) == 0 && ecnMarked == f.ecnMarked
                    && cnpCount == f.cnpCount && Double.compare(rttUs, f.rttUs) == 0 && drops == f.drops;
        }

        @Override
        public int hashCode() {
            return Objects.hash(flowId, jobId, dstNic, ev, carrier, bytes, rateGbps, ecnMarked, cnpCount, rttUs, drops);
        }

        @Override
        public String toString() {
            return "Flow[" + flowId + " -> " + dstNic + (ev != null ? " ev=" + ev : " carrier=" + carrier)
                    + " bytes=" + Long.toUnsignedString(bytes) + " rateGbps=" + rateGbps + "]";
        }
    }

    /** A profile entry (or a whole peer, without {@code entry}) the agent refused to apply, and why. */
    public static final class Rejection {
        private final String peer;
        private final String entry;
        private final String field;
        private final String reason;

        /** @param entry null when the whole peer was refused */
        public Rejection(String peer, String entry, String field, String reason) {
            this.peer = Objects.requireNonNull(peer, "peer");
            this.entry = entry;
            this.field = Objects.requireNonNull(field, "field");
            this.reason = Objects.requireNonNull(reason, "reason");
        }

        static Rejection read(Strict o) {
            String peer = o.string("peer", 0);
            if (o.has("entry") && o.optionalString("entry", 1) == null) {
                throw new ContractException(o.at("entry"), "must be a string (got null)");
            }
            String entry = o.optionalString("entry", 1);
            String field = o.string("field", 1);
            String reason = o.string("reason", 1);
            o.done();
            return new Rejection(peer, entry, field, reason);
        }

        void write(JsonGenerator g) throws IOException {
            g.writeStartObject();
            g.writeStringField("peer", peer);
            if (entry != null) {
                g.writeStringField("entry", entry);
            }
            g.writeStringField("field", field);
            g.writeStringField("reason", reason);
            g.writeEndObject();
        }

        public String peer() {
            return peer;
        }

        public String entry() {
            return entry;
        }

        public String field() {
            return field;
        }

        public String reason() {
            return reason;
        }

        @Override
        public boolean equals(Object o) {
            if (!(o instanceof Rejection)) {
                return false;
            }
            Rejection r = (Rejection) o;
            return peer.equals(r.peer) && Objects.equals(entry, r.entry) && field.equals(r.field)
                    && reason.equals(r.reason);
        }

        @Override
        public int hashCode() {
            return Objects.hash(peer, entry, field, reason);
        }

        @Override
        public String toString() {
            return "Rejection[" + field + ": " + reason + "]";
        }
    }
}
