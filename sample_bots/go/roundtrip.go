package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"

	"arena/bots/gobot/protocol"
)

// roundTrip decodes each line of in into the typed model and writes it
// encoded again, one line each, in order. It stops at the first line it
// cannot decode (after writing the lines before it) with an error.
func roundTrip(in io.Reader, out io.Writer) error {
	reader := bufio.NewReader(in)
	writer := bufio.NewWriter(out)
	defer writer.Flush()
	for number := 1; ; number++ {
		line, readErr := reader.ReadBytes('\n')
		if readErr == io.EOF && len(line) == 0 {
			return nil
		}
		if readErr != nil && readErr != io.EOF {
			return readErr
		}
		msg, err := protocol.Decode(line)
		if err != nil {
			return fmt.Errorf("line %d: %w", number, err)
		}
		data, err := json.Marshal(msg)
		if err != nil {
			return fmt.Errorf("line %d: cannot encode: %w", number, err)
		}
		writer.Write(data)
		if err := writer.WriteByte('\n'); err != nil {
			return err
		}
	}
}
