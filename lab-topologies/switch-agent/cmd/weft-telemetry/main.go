// weft-telemetry subscribes to Weft switch agents over gNMI (STREAM, SAMPLE) and writes gnmic's
// "event" records to weft.telemetry.interfaces: the lab's and the demo's stand-in for gnmic.
//
//	weft-telemetry --brokers 127.0.0.1:9092 --targets-file .weft/lab/lab/gnmi-targets.txt
//
// With --follow-fabric (the default) it subscribes to the switches of the latest weft.fabric
// snapshots that have an address in the targets; without, to every target listed.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
	"weft.io/switch-agent/internal/telemetry"
)

func main() {
	brokers := flag.String("brokers", "127.0.0.1:9092", "Kafka bootstrap servers, comma-separated")
	topic := flag.String("topic", telemetry.TelemetryTopic, "topic the events are written to")
	fabricTopic := flag.String("fabric-topic", telemetry.FabricTopic, "topic of the fabric snapshots")
	follow := flag.Bool("follow-fabric", true, "subscribe to the switches of the fabric snapshots (else every target)")
	targets := flag.String("targets", "", "switch=host:port,... gNMI addresses of the switch agents")
	targetsFile := flag.String("targets-file", "", "file of switch=host:port lines (added to --targets)")
	interval := flag.Duration("interval", 100*time.Millisecond, "SAMPLE interval")
	name := flag.String("subscription-name", "weft-ifcounters", "subscription name in the events")
	user := flag.String("username", "", "gRPC metadata username for the switches (optional)")
	pass := flag.String("password", "", "gRPC metadata password for the switches (optional)")
	flag.Parse()
	logger := log.New(os.Stderr, "weft-telemetry: ", log.LstdFlags)
	if err := run(*brokers, *topic, *fabricTopic, *follow, *targets, *targetsFile, *interval, *name, *user, *pass, logger); err != nil {
		logger.Print(err)
		os.Exit(1)
	}
}

func run(brokers, topic, fabricTopic string, follow bool, targets, targetsFile string, interval time.Duration,
	name, user, pass string, logger *log.Logger) error {
	addrs, err := telemetry.ParseTargets(targets)
	if err != nil {
		return fmt.Errorf("--targets: %w", err)
	}
	if targetsFile != "" {
		more, err := telemetry.ReadTargetsFile(targetsFile)
		if err != nil {
			return fmt.Errorf("--targets-file: %w", err)
		}
		for k, v := range more {
			addrs[k] = v
		}
	}
	if interval < 10*time.Millisecond {
		return fmt.Errorf("--interval %s: below 10ms", interval)
	}
	seeds := strings.Split(brokers, ",")
	// Logs in as the environment says (principal weft-telemetry of contracts/topics.json over SASL_SSL).
	login, err := telemetry.KafkaLogin(os.Getenv)
	if err != nil {
		return err
	}
	// franz-go lingers 10 ms by default to fill batches; a port's oper-status change is one small
	// record that the loop waits for, and at 100 ms sampling batches fill while a request is in
	// flight anyway: 1 ms, as the collector's producer.
	client, err := kgo.NewClient(append([]kgo.Opt{kgo.SeedBrokers(seeds...), kgo.DefaultProduceTopic(topic),
		kgo.ProducerLinger(time.Millisecond)}, login...)...)
	if err != nil {
		return fmt.Errorf("--brokers: %w", err)
	}
	defer client.Close()
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	sub := &telemetry.Subscriber{Interval: interval, Subscription: name, Username: user, Password: pass,
		Sink: &telemetry.KafkaSink{Client: client, Topic: topic, Log: logger}, Log: logger}
	if !follow {
		var ts []telemetry.Target
		for n, a := range addrs {
			ts = append(ts, telemetry.Target{Name: n, Address: a})
		}
		sub.SetTargets(ctx, ts)
		logger.Printf("subscribed to %v", sub.Targets())
		<-ctx.Done()
	} else {
		err = telemetry.FollowFabric(ctx, seeds, login, fabricTopic, logger, func(f *telemetry.Fabrics) {
			ts, missing := f.Targets(addrs)
			if len(missing) > 0 {
				logger.Printf("switches without a gNMI address (not subscribed): %v", missing)
			}
			sub.SetTargets(ctx, ts)
			logger.Printf("subscribed to %v", sub.Targets())
		})
	}
	stop()
	sub.Wait()
	client.Flush(context.Background())
	return err
}
