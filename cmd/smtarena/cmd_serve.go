package main

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"os"

	"github.com/spf13/cobra"

	"github.com/smtarena/smtarena/internal/compete"
	"github.com/smtarena/smtarena/internal/config"
	"github.com/smtarena/smtarena/internal/report"
	"github.com/smtarena/smtarena/internal/web"
)

// ServeOptions are the flags of `smtarena serve`.
type ServeOptions struct {
	Score ScoreOptions
	Addr  string
	Token string
}

func newServeCmd(io streams) *cobra.Command {
	opts := ServeOptions{Addr: "127.0.0.1:8080"}
	cmd := &cobra.Command{
		Use:   "serve [--addr 127.0.0.1:8080] [--token T] [--config competition.toml | --rules YEAR ...]",
		Short: "Serve a competition's results live from the store, also while compete runs",
		Long: `Serve the pages of smtarena report from the store, rebuilt when results
arrive, while smtarena compete runs in another process (SQLite or
PostgreSQL): progress per track and division (pairs done and planned, ETA,
errors and wrong answers so far), the scores so far, and the latest results,
updated in the page without a reload. Read-only. It listens on loopback
unless --token is given; then every request must carry the token
(?token=T once in the browser, which sets a cookie, or the header
"Authorization: Bearer T").`,
		Example: `  smtarena serve --config examples/demo.toml
  smtarena serve --addr 0.0.0.0:8080 --token "$(openssl rand -hex 16)" --config examples/demo.toml`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if opts.Score.Config != "" && !cmd.Flags().Changed("db") && os.Getenv("SMTARENA_DB") == "" {
				opts.Score.DB = ""
			}
			return runServe(cmd.Context(), opts, io, nil)
		},
	}
	siteFlags(cmd, &opts.Score)
	cmd.Flags().StringVar(&opts.Addr, "addr", opts.Addr, "address to listen on (loopback unless --token)")
	cmd.Flags().StringVar(&opts.Token, "token", "", "a secret every request must carry (required off loopback)")
	return cmd
}

// runServe serves until ctx ends; ready, when not nil, gets the address.
func runServe(ctx context.Context, opts ServeOptions, io streams, ready func(net.Addr)) error {
	if err := web.CheckAddr(opts.Addr, opts.Token); err != nil {
		return err
	}
	st, err := openSiteStore(ctx, &opts.Score, false)
	if err != nil {
		return err
	}
	defer st.Close()
	quiet := streams{in: io.in, out: io.out, err: discardWriter{}} // scoring's notes once, not at every rebuild
	first := true
	wo := web.Options{
		Token: opts.Token,
		Load: func(ctx context.Context) (*report.Input, error) {
			s := quiet
			if first {
				s, first = io, false
			}
			return loadSite(ctx, st, opts.Score, s)
		},
		Log: slog.New(slog.NewTextHandler(io.err, nil)),
	}
	if opts.Score.Config != "" {
		def, err := config.Load(opts.Score.Config)
		if err != nil {
			return err
		}
		wo.Counts = func(ctx context.Context) (map[string]map[string]int, error) {
			out := map[string]map[string]int{}
			for _, t := range def.TrackNames() {
				c, err := st.PairCounts(ctx, compete.Key(def, t))
				if err != nil {
					return nil, err
				}
				for k, v := range c {
					out[k] = v
				}
			}
			return out, nil
		}
		wo.Nodes = func(ctx context.Context) (map[string]map[string]map[string]int, error) {
			return nodeCounts(ctx, def, st)
		}
	}
	srv := web.New(wo)
	fmt.Fprintf(io.out, "building the site from %s (a minute or two for a million pairs) and listening on %s\n", opts.Score.DB, opts.Addr)
	return srv.Run(ctx, opts.Addr, func(a net.Addr) {
		url := "http://" + a.String() + "/"
		if opts.Token != "" {
			url += "?token=" + opts.Token
		}
		fmt.Fprintf(io.out, "serving %s on %s (read-only; Ctrl-C stops)\n", opts.Score.DB, url)
		if ready != nil {
			ready(a)
		}
	})
}

type discardWriter struct{}

func (discardWriter) Write(p []byte) (int, error) { return len(p), nil }
