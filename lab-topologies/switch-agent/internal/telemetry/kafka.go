package telemetry

import (
	"context"
	"log"

	"github.com/twmb/franz-go/pkg/kgo"
)

// Topics of contracts/topics.md.
const (
	TelemetryTopic = "weft.telemetry.interfaces"
	FabricTopic    = "weft.fabric"
)

// KafkaSink produces records asynchronously; the default partitioner hashes the key like
// Kafka's Java client, so one switch's samples stay on one partition, in order.
type KafkaSink struct {
	Client *kgo.Client
	Topic  string
	Log    *log.Logger
}

func (k *KafkaSink) Write(key string, value []byte) {
	k.Client.Produce(context.Background(), &kgo.Record{Topic: k.Topic, Key: []byte(key), Value: value},
		func(r *kgo.Record, err error) {
			if err != nil {
				k.Log.Printf("switch %s: producing to %s: %v", r.Key, r.Topic, err)
			}
		})
}

// FollowFabric consumes weft.fabric from the start (compacted: the latest snapshot of every
// fabric) and calls onChange with the fabrics after each batch of records. login: KafkaLogin's options.
func FollowFabric(ctx context.Context, brokers []string, login []kgo.Opt, topic string, logger *log.Logger,
	onChange func(*Fabrics)) error {
	opts := append([]kgo.Opt{kgo.SeedBrokers(brokers...), kgo.ConsumeTopics(topic),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart())}, login...)
	c, err := kgo.NewClient(opts...)
	if err != nil {
		return err
	}
	defer c.Close()
	f := &Fabrics{}
	for {
		fetches := c.PollFetches(ctx)
		if ctx.Err() != nil {
			return nil
		}
		fetches.EachError(func(t string, p int32, err error) { logger.Printf("%s[%d]: %v", t, p, err) })
		n := 0
		fetches.EachRecord(func(r *kgo.Record) {
			if err := f.Apply(string(r.Key), r.Value); err != nil {
				logger.Print(err)
				return
			}
			n++
		})
		if n > 0 {
			onChange(f)
		}
	}
}
