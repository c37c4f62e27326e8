// weft-switch makes a Linux network namespace behave as a Weft switch configured over gNMI.
//
//	weft-switch --netns wl-lab-leaf1 --listen 127.0.0.1:50001 --port-map eth1=p0,eth2=p1 --target leaf1
//
// Without --netns it operates the namespace it runs in (a containerlab linux node).
// "weft-switch push --address A intent.json..." sends DeviceIntent files to running agents.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"net"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/openconfig/gnmi/proto/gnmi"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"weft.io/switch-agent/internal/kernel"
	"weft.io/switch-agent/internal/server"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "push" {
		if err := push(os.Args[2:]); err != nil {
			fmt.Fprintln(os.Stderr, "weft-switch push:", err)
			os.Exit(1)
		}
		return
	}
	nsName := flag.String("netns", "", "network namespace to operate (/var/run/netns/<name>); empty: the agent's own")
	listen := flag.String("listen", "127.0.0.1:9339", "gNMI listen address (9339 is gNMI's IANA port), or unix:<path>")
	portMap := flag.String("port-map", "", "fabric port to link, e.g. eth1=p0,eth2=p1; empty: same names")
	target := flag.String("target", "", "the switch id (prefix.target); default: --netns, else the host name")
	cert := flag.String("tls-cert", "", "TLS certificate (PEM); plaintext when empty")
	key := flag.String("tls-key", "", "TLS key (PEM)")
	user := flag.String("username", "", "required gRPC metadata username (optional)")
	pass := flag.String("password", "", "required gRPC metadata password (optional)")
	flag.Parse()
	if err := run(*nsName, *listen, *portMap, *target, *cert, *key, *user, *pass); err != nil {
		fmt.Fprintln(os.Stderr, "weft-switch:", err)
		os.Exit(1)
	}
}

func run(nsName, listen, portMap, target, cert, key, user, pass string) error {
	ports, err := kernel.ParsePorts(portMap)
	if err != nil {
		return err
	}
	if target == "" {
		target = nsName
		if target == "" {
			target, _ = os.Hostname()
		}
	}
	k, err := kernel.Open(nsName, ports)
	if err != nil {
		return err
	}
	defer k.Close()
	var opts []grpc.ServerOption
	if cert != "" || key != "" {
		creds, err := credentials.NewServerTLSFromFile(cert, key)
		if err != nil {
			return fmt.Errorf("--tls-cert/--tls-key: %w", err)
		}
		opts = append(opts, grpc.Creds(creds))
	}
	// A unix socket is reachable from any namespace of the host: the way in to an agent that runs
	// inside its switch's namespace without a route from outside.
	network, address := "tcp", listen
	if path, ok := strings.CutPrefix(listen, "unix:"); ok {
		network, address = "unix", path
	}
	lis, err := net.Listen(network, address)
	if err != nil {
		return fmt.Errorf("--listen %s: %w", listen, err)
	}
	g := grpc.NewServer(opts...)
	gnmi.RegisterGNMIServer(g, server.New(k, target, user, pass))
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	go func() {
		if err := k.Watch(ctx, log.Default()); err != nil {
			log.Printf("weft-switch %s: %v (ports coming back up keep no routes)", target, err)
		}
	}()
	go func() {
		<-ctx.Done()
		g.GracefulStop()
	}()
	log.Printf("weft-switch %s: gNMI on %s, namespace %q", target, lis.Addr(), nsName)
	return g.Serve(lis)
}
