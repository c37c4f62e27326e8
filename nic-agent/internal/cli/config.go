package cli

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"
	"github.com/spf13/viper"
)

// EnvPrefix prefixes the environment variables of every setting: --report-interval is
// WEFT_AGENT_REPORT_INTERVAL.
const EnvPrefix = "WEFT_AGENT"

// settings parses a verb's flags and layers them with viper: a flag given on the command line
// wins over the environment, which wins over the config file (--config, YAML/JSON/TOML), which
// wins over the flag's default.
func settings(name, usage string, args []string, stderr io.Writer, define func(fs *pflag.FlagSet)) (*viper.Viper, int, bool) {
	fs := pflag.NewFlagSet(name, pflag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.String("config", "", "config file (YAML, JSON or TOML) with the same keys as the flags")
	fs.String("socket", "/run/weft/nic-agent.sock", "the agent's local unix socket (status and EV ports, JSON)")
	define(fs)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: nic-agent %s %s\n\nEvery flag can also be set as %s_<FLAG> (upper case, - as _) or in --config.\n\n",
			name, usage, EnvPrefix)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return nil, exitOK, false
		}
		fmt.Fprintf(stderr, "nic-agent %s: %v\n", name, err)
		return nil, exitUsage, false
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "nic-agent %s: unexpected argument %q\n", name, strings.Join(fs.Args(), " "))
		return nil, exitUsage, false
	}
	v := viper.New()
	v.SetEnvPrefix(EnvPrefix)
	v.SetEnvKeyReplacer(strings.NewReplacer("-", "_"))
	v.AutomaticEnv()
	if err := v.BindPFlags(fs); err != nil {
		return nil, fail(stderr, name, err, exitUsage), false
	}
	if file := v.GetString("config"); file != "" {
		v.SetConfigFile(file)
		if err := v.ReadInConfig(); err != nil {
			return nil, fail(stderr, name, fmt.Errorf("config: %w", err), exitUsage), false
		}
		known := map[string]bool{}
		fs.VisitAll(func(f *pflag.Flag) { known[f.Name] = true })
		for _, k := range v.AllKeys() {
			if !known[k] {
				return nil, fail(stderr, name, fmt.Errorf("config: %s: unknown key %q", file, k), exitUsage), false
			}
		}
	}
	return v, exitOK, true
}
