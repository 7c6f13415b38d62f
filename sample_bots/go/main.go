// Command bot is the Go starter kit's Knockout Whist bot for the arena
// (protocol v1). It reads the referee's JSON lines on stdin and answers on
// stdout; the strategy is Strategy.Choose in strategy.go.
//
//	bin/bot               play a session (what the arena runs)
//	bin/bot --eps E       the same, with a random legal move with probability E (0 to 1)
//	bin/bot --roundtrip   decode each JSON line of stdin into the typed model
//	                      and print it encoded again (a check of the model)
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
)

const usage = "usage: bin/bot [--eps E] [--roundtrip]"

func main() {
	log.SetFlags(0)
	log.SetPrefix("gobot: ")
	eps, roundtrip, err := parseArgs(os.Args[1:])
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(os.Stderr, usage)
		return
	}
	if err != nil {
		log.Printf("%v (%s)", err, usage)
		os.Exit(2)
	}

	// Only protocol lines may reach stdout: any other line would be read as
	// a reply and cost the game. Keep the real stdout for replies and send
	// a stray fmt.Println in a strategy to stderr, the bot's log.
	out := os.Stdout
	os.Stdout = os.Stderr

	if roundtrip {
		err = roundTrip(os.Stdin, out)
	} else {
		err = play(os.Stdin, out, NewStrategy(eps))
	}
	if err != nil {
		log.Print(err)
		os.Exit(1)
	}
}

// parseArgs reads the command line. Its errors make one line: the flag
// package's own report would add a usage text of several.
func parseArgs(args []string) (eps float64, roundtrip bool, err error) {
	flags := flag.NewFlagSet("bot", flag.ContinueOnError)
	flags.SetOutput(io.Discard)
	flags.Float64Var(&eps, "eps", 0, "share of random moves, 0 to 1")
	flags.BoolVar(&roundtrip, "roundtrip", false, "decode and re-encode each JSON line of stdin, then exit")
	if err = flags.Parse(args); err != nil {
		return 0, false, err
	}
	if flags.NArg() > 0 { // e.g. "bin/bot 0.3", the --eps forgotten
		return 0, false, fmt.Errorf("unexpected argument %q", flags.Arg(0))
	}
	if !(eps >= 0 && eps <= 1) { // NaN too
		return 0, false, fmt.Errorf("--eps takes a share from 0 to 1, not %v", eps)
	}
	return eps, roundtrip, nil
}
