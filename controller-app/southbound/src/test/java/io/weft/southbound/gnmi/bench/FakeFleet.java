package io.weft.southbound.gnmi.bench;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.grpc.inprocess.InProcessChannelBuilder;
import io.weft.southbound.gnmi.ChannelFactory;
import io.weft.southbound.gnmi.FakeSwitch;
import io.weft.southbound.gnmi.GnmiTarget;
import io.weft.southbound.gnmi.NettyChannels;

/**
 * The benchmark's switches: one fake gNMI server per switch, either in the benchmark's JVM
 * (in-process transport) or in a child JVM on loopback TCP ({@link #childJvm}), so that the
 * controller's heap holds only what the controller holds (its sessions over real Netty channels),
 * not the switches' configuration. The child is this class's {@link #main}: it serves the switches
 * named in its arguments, prints {@code <switch> <port>} lines and {@code READY}, answers
 * {@code STATS} with {@code <switch> <sets> <ops> <bytes>} lines and {@code END}, and exits when its
 * standard input closes.
 */
abstract class FakeFleet implements AutoCloseable {
    abstract Map<String, GnmiTarget> targets();

    abstract ChannelFactory channels();

    /** Per switch: SetRequests, ops (replace + delete) and bytes received so far. */
    abstract Map<String, long[]> counters() throws IOException;

    @Override
    public abstract void close();

    static FakeFleet inProcess(List<String> switches) throws IOException {
        Map<String, FakeSwitch> fakes = new LinkedHashMap<>();
        Map<String, GnmiTarget> targets = new LinkedHashMap<>();
        for (String sw : switches) {
            FakeSwitch f = new FakeSwitch("bench-" + sw);
            f.keepSets = false; // a k=16 fabric's requests would double the fakes' heap
            fakes.put(sw, f.start());
            targets.put(sw, GnmiTarget.plaintext(sw, "bench-" + sw, 9339));
        }
        return new FakeFleet() {
            @Override
            Map<String, GnmiTarget> targets() {
                return targets;
            }

            @Override
            ChannelFactory channels() {
                return t -> InProcessChannelBuilder.forName(t.address()).build();
            }

            @Override
            Map<String, long[]> counters() {
                Map<String, long[]> out = new LinkedHashMap<>();
                fakes.forEach((sw, f) -> out.put(sw, new long[] {f.setCount.get(), f.opCount.get(), f.setBytes.get()}));
                return out;
            }

            @Override
            public void close() {
                fakes.values().forEach(FakeSwitch::close);
            }
        };
    }

    /** The switches in a child JVM ({@code heap}, e.g. "2g"), reached over loopback TCP with {@link NettyChannels}. */
    static FakeFleet childJvm(List<String> switches, String heap) throws IOException {
        List<String> cmd = new java.util.ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx" + heap, "-Xms" + heap,
                "-cp", System.getProperty("java.class.path"), FakeFleet.class.getName()));
        cmd.addAll(switches);
        Process child = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        BufferedReader in = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
        BufferedWriter out = new BufferedWriter(new OutputStreamWriter(child.getOutputStream(),
                StandardCharsets.UTF_8));
        Map<String, GnmiTarget> targets = new LinkedHashMap<>();
        for (String line = in.readLine(); !"READY".equals(line); line = in.readLine()) {
            if (line == null) {
                throw new IOException("the fake switches' JVM exited before it was ready");
            }
            String[] f = line.split(" ");
            targets.put(f[0], GnmiTarget.plaintext(f[0], "127.0.0.1", Integer.parseInt(f[1])));
        }
        return new FakeFleet() {
            @Override
            Map<String, GnmiTarget> targets() {
                return targets;
            }

            @Override
            ChannelFactory channels() {
                return new NettyChannels();
            }

            @Override
            synchronized Map<String, long[]> counters() throws IOException {
                out.write("STATS\n");
                out.flush();
                Map<String, long[]> c = new LinkedHashMap<>();
                for (String line = in.readLine(); !"END".equals(line); line = in.readLine()) {
                    if (line == null) {
                        throw new IOException("the fake switches' JVM went away");
                    }
                    String[] f = line.split(" ");
                    c.put(f[0], new long[] {Long.parseLong(f[1]), Long.parseLong(f[2]), Long.parseLong(f[3])});
                }
                return c;
            }

            @Override
            public void close() {
                try {
                    out.close();
                    if (!child.waitFor(10, TimeUnit.SECONDS)) {
                        child.destroyForcibly();
                    }
                } catch (IOException | InterruptedException e) {
                    child.destroyForcibly();
                }
            }
        };
    }

    /** The child JVM: serve the named switches on loopback TCP until standard input closes. */
    public static void main(String[] args) throws Exception {
        PrintStream out = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), true, "UTF-8");
        Map<String, FakeSwitch> fakes = new LinkedHashMap<>();
        for (String sw : args) {
            FakeSwitch f = FakeSwitch.tcp(sw);
            f.keepSets = false;
            fakes.put(sw, f.start());
            out.println(sw + " " + f.port());
        }
        out.println("READY");
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            if (line.equals("STATS")) {
                StringBuilder b = new StringBuilder();
                fakes.forEach((sw, f) -> b.append(sw).append(' ').append(f.setCount.get()).append(' ')
                        .append(f.opCount.get()).append(' ').append(f.setBytes.get()).append('\n'));
                out.print(b.append("END\n"));
                out.flush();
            }
        }
        fakes.values().forEach(FakeSwitch::close);
        System.exit(0);
    }
}
