package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/spf13/pflag"

	"weft.io/nic-agent/internal/agent"
	"weft.io/nic-agent/internal/counters"
	"weft.io/nic-agent/internal/host"
	"weft.io/nic-agent/internal/probe"
	"weft.io/nic-agent/internal/route"
	"weft.io/nic-agent/internal/scheduler"
)

func runAgent(args []string, stdout, stderr io.Writer) int {
	v, code, ok := settings("run", "--server URL --nic ID [flags]", args, stderr, runFlags)
	if !ok {
		return code
	}
	log, err := newLogger(v.GetString("log-level"), v.GetString("log-format"), stderr)
	if err != nil {
		return fail(stderr, "run", err, exitUsage)
	}
	token := v.GetString("token")
	if f := v.GetString("token-file"); f != "" {
		b, err := os.ReadFile(f)
		if err != nil {
			return fail(stderr, "run", fmt.Errorf("token-file: %w", err), exitUsage)
		}
		token = strings.TrimSpace(string(b))
	}
	client, err := scheduler.New(v.GetString("server"), v.GetString("nic"), token)
	if err != nil {
		return fail(stderr, "run", err, exitUsage)
	}
	var rdma *counters.RDMA
	if dev := v.GetString("rdma-dev"); dev != "" {
		if rdma, err = counters.NewRDMA("/sys", dev, v.GetInt("rdma-port")); err != nil {
			return fail(stderr, "run", err, exitUsage)
		}
	}
	ns := v.GetString("netns")
	prog, err := route.NewNetlink(ns)
	if err != nil {
		return fail(stderr, "run", err, exitError)
	}
	defer prog.Close()
	ports, err := parsePorts(v.GetStringSlice("port"))
	if err != nil {
		return fail(stderr, "run", err, exitUsage)
	}
	up, err := host.DetectUplink(prog.Handle(), host.Uplink{Dev: v.GetString("dev"), Via: v.GetString("via"),
		Address: v.GetString("address")})
	if err != nil {
		return fail(stderr, "run", err, exitError)
	}
	up.Ports = ports
	cfg := agent.Config{NIC: v.GetString("nic"), Uplink: up, StateFile: v.GetString("state-file"),
		EVFile: v.GetString("ev-file"), Wait: v.GetDuration("wait"), BackoffMax: v.GetDuration("backoff-max"),
		ReportInterval: v.GetDuration("report-interval"), ProbeInterval: v.GetDuration("probe-interval"),
		ProbeTimeout: v.GetDuration("probe-timeout"), ProbeLosses: v.GetInt("probe-losses"),
		Stream: v.GetBool("stream")}
	once := v.GetBool("once")
	var cnt agent.Counters
	var prb agent.Prober
	if !once {
		if c, err := counters.NewNFT(ns); err != nil {
			log.Warn("no kernel counters: reports carry zero bytes", "err", err)
		} else {
			cnt = c
		}
		if cfg.ProbeInterval > 0 {
			p, err := probe.NewICMP(ns, prog.Handle(), up.Dev, up.Via)
			if err != nil {
				log.Warn("no probes", "err", err)
			} else {
				defer p.Close()
				prb = p
			}
		}
	}
	a := agent.New(cfg, client, prog, cnt, prb, log)
	if rdma != nil {
		a.UseNICCounters(rdma)
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	log.Info("nic-agent starting", "version", Version, "nic", cfg.NIC, "server", v.GetString("server"), "netns", ns,
		"dev", up.Dev, "via", up.Via, "address", up.Address)
	var wg sync.WaitGroup
	if !once {
		if sock := v.GetString("socket"); sock != "" {
			wg.Go(func() {
				if err := a.ServeSocket(ctx, sock); err != nil {
					log.Error("local socket stopped", "err", err)
				}
			})
		}
		if addr := v.GetString("metrics-addr"); addr != "" {
			wg.Go(func() {
				if err := a.ServeMetrics(ctx, addr); err != nil {
					log.Error("metrics endpoint stopped", "err", err)
				}
			})
		}
	}
	err = a.Run(ctx, once)
	stop()
	wg.Wait()
	if err != nil && !errors.Is(err, context.Canceled) {
		return fail(stderr, "run", err, exitError)
	}
	if once {
		s := a.Snapshot()
		fmt.Fprintf(stdout, "version %d: %d routes, %d EV peers, %d rejected\n", s.Version, len(s.Applied.Routes),
			len(s.Applied.EV), len(s.Applied.Rejected))
		for _, r := range s.Applied.Rejected {
			fmt.Fprintf(stdout, "rejected %s\n", r)
		}
	}
	return exitOK
}

// runFlags defines the flags of `nic-agent run` (also the keys of its config file).
func runFlags(fs *pflag.FlagSet) {
	fs.String("server", "http://127.0.0.1:8082", "scheduler-api base URL")
	fs.String("nic", "", "this NIC's id in the fabric (required)")
	fs.String("token", "", "agent bearer token bound to the NIC (prefer --token-file or the environment)")
	fs.String("token-file", "", "file holding the agent bearer token")
	fs.String("netns", "", "program this named network namespace instead of the agent's own (lab)")
	fs.String("dev", "", "uplink interface (default: the IPv6 default route's)")
	fs.String("via", "", "uplink gateway (default: the IPv6 default route's)")
	fs.String("address", "", "this NIC's IPv6 address, the source in the EV file (default: the first global one on --dev)")
	fs.StringArray("port", nil, "LINK=DEV[,VIA]: a NIC with one port per fabric plane: the local interface (and "+
		"gateway) of the port whose fabric link id is LINK; repeat per port")
	fs.String("state-file", "/var/lib/weft/nic-agent/state.json", "last applied version and routes (\"\" = none)")
	fs.String("ev-file", "/run/weft/ev-ports", "HCCL-shaped EV file, one 'src,dst=sport,...' line per peer (\"\" = none)")
	fs.String("metrics-addr", "127.0.0.1:9464", "Prometheus /metrics listen address (\"\" = off)")
	// On by default: with 10,000 agents the stream costs scheduler-api less CPU per change than
	// long-polls (see README); servers without it are long-polled.
	fs.Bool("stream", true, "follow the profile stream (one long-lived response); long-poll when the server has none")
	fs.Duration("wait", 30*time.Second, "long-poll wait asked of scheduler-api")
	fs.Duration("backoff-max", 30*time.Second, "longest wait between retries while scheduler-api is unreachable")
	fs.Duration("report-interval", time.Second, "flow report interval (0 = no reports)")
	fs.Duration("probe-interval", time.Second, "probe interval per entry (0 = no probes)")
	fs.Duration("probe-timeout", 500*time.Millisecond, "a probe unanswered this long is lost")
	fs.Int("probe-losses", 3, "lost probes in a row that make an entry ASSUMED_BAD")
	fs.String("rdma-dev", "", "RDMA device whose hw_counters give ECN marks, CNPs and losses in reports, e.g. mlx5_0 (\"\" = none)")
	fs.Int("rdma-port", 1, "port of --rdma-dev")
	fs.String("log-level", "info", "debug, info, warn or error")
	fs.String("log-format", "json", "json or text")
	fs.Bool("once", false, "fetch and apply the current profile once, then exit (debugging)")
}

func newLogger(level, format string, w io.Writer) (*slog.Logger, error) {
	var l slog.Level
	if err := l.UnmarshalText([]byte(level)); err != nil {
		return nil, fmt.Errorf("log-level: %q is not debug, info, warn or error", level)
	}
	opts := &slog.HandlerOptions{Level: l}
	switch format {
	case "json":
		return slog.New(slog.NewJSONHandler(w, opts)), nil
	case "text":
		return slog.New(slog.NewTextHandler(w, opts)), nil
	}
	return nil, fmt.Errorf("log-format: %q is not json or text", format)
}

// parsePorts reads the --port values (LINK=DEV[,VIA]) into the uplink's port map, naming the bad one.
func parsePorts(values []string) (map[string]host.Port, error) {
	if len(values) == 0 {
		return nil, nil
	}
	ports := map[string]host.Port{}
	for _, v := range values {
		link, rest, ok := strings.Cut(v, "=")
		dev, via, _ := strings.Cut(rest, ",")
		if !ok || link == "" || dev == "" {
			return nil, fmt.Errorf("port: %q is not LINK=DEV[,VIA]", v)
		}
		if _, dup := ports[link]; dup {
			return nil, fmt.Errorf("port: link %q given twice", link)
		}
		asRoute := route.Route{Dst: "::/0", Dev: dev, Via: via, Nexthops: []route.Nexthop{{Carriers: []string{"::1"}}}}
		if err := route.Check(asRoute); err != nil {
			return nil, fmt.Errorf("port %s: %w", link, err)
		}
		ports[link] = host.Port{Dev: dev, Via: via}
	}
	return ports, nil
}
