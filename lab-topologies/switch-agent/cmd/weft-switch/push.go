package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/openconfig/gnmi/proto/gnmi"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"weft.io/switch-agent/internal/model"
)

// push sends DeviceIntent files (one per switch) to switch agents, as the controller's client
// will: one SetRequest each. For the lab and for debugging before the controller drives it.
//
//	weft-switch push --address 127.0.0.1:50001 leaf1.json
func push(args []string) error {
	fs := flag.NewFlagSet("push", flag.ContinueOnError)
	addr := fs.String("address", "127.0.0.1:9339", "the switch agent's gNMI address")
	timeout := fs.Duration("timeout", 30*time.Second, "deadline of each Set")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return fmt.Errorf("push: name at least one DeviceIntent file")
	}
	conn, err := grpc.NewClient(*addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return fmt.Errorf("--address %s: %w", *addr, err)
	}
	defer conn.Close()
	client := gnmi.NewGNMIClient(conn)
	for _, file := range fs.Args() {
		raw, err := os.ReadFile(file)
		if err != nil {
			return err
		}
		var in model.Intent
		if err := json.Unmarshal(raw, &in); err != nil {
			return fmt.Errorf("%s: %w", file, err)
		}
		req, err := in.SetRequest()
		if err != nil {
			return fmt.Errorf("%s: %w", file, err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), *timeout)
		start := time.Now()
		_, err = client.Set(ctx, req)
		cancel()
		if err != nil {
			return fmt.Errorf("%s: Set on %s: %w", file, *addr, err)
		}
		fmt.Printf("%s: %d ops applied to %s in %s\n", in.Target, len(req.Replace), *addr, time.Since(start).Round(time.Millisecond))
	}
	return nil
}
