// Command bot is the Go starter kit's Knockout Whist bot for the arena
// (protocol v1). It reads the referee's JSON lines on stdin and answers on
// stdout; the strategy is Bot.Choose in strategy.go.
//
//	bin/bot               play a session (what the arena runs)
//	bin/bot --roundtrip   decode each JSON line of stdin into the typed model
//	                      and print it encoded again (a check of the model)
package main

import (
	"flag"
	"log"
	"os"
)

func main() {
	log.SetFlags(0)
	log.SetPrefix("gobot: ")
	roundtrip := flag.Bool("roundtrip", false, "decode and re-encode each JSON line of stdin, then exit")
	flag.Parse()

	// Only protocol lines may reach stdout: any other line would be read as
	// a reply and cost the game. Keep the real stdout for replies and send
	// a stray fmt.Println in a strategy to stderr, the bot's log.
	out := os.Stdout
	os.Stdout = os.Stderr

	var err error
	if *roundtrip {
		err = roundTrip(os.Stdin, out)
	} else {
		err = play(os.Stdin, out, NewBot())
	}
	if err != nil {
		log.Print(err)
		os.Exit(1)
	}
}
