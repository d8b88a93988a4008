// Renders jobs of tools/golden/corpora.py with Go's fmt: reads JSON lines
// {format, args} on standard input, each arg [kind, value] ("string",
// "error", "int", "float", "bool"), and writes {text} per job: fmt.Errorf
// when an argument is an error (so that %w works), else fmt.Sprintf.
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
)

type job struct {
	Format string              `json:"format"`
	Args   [][]json.RawMessage `json:"args"`
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<26)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	for in.Scan() {
		if len(in.Bytes()) == 0 {
			continue
		}
		var j job
		if err := json.Unmarshal(in.Bytes(), &j); err != nil {
			panic(err)
		}
		args := make([]interface{}, len(j.Args))
		wrap := false
		for i, a := range j.Args {
			var kind string
			json.Unmarshal(a[0], &kind)
			switch kind {
			case "int":
				n, err := strconv.ParseInt(string(a[1]), 10, 64)
				if err != nil {
					panic(err)
				}
				args[i] = n
			case "float":
				f, err := strconv.ParseFloat(string(a[1]), 64)
				if err != nil {
					panic(err)
				}
				args[i] = f
			case "bool":
				var b bool
				json.Unmarshal(a[1], &b)
				args[i] = b
			default:
				var s string
				json.Unmarshal(a[1], &s)
				if kind == "error" {
					args[i] = errors.New(s)
					wrap = true
				} else {
					args[i] = s
				}
			}
		}
		var text string
		if wrap {
			text = fmt.Errorf(j.Format, args...).Error()
		} else {
			text = fmt.Sprintf(j.Format, args...)
		}
		line, _ := json.Marshal(map[string]string{"text": text})
		out.Write(line)
		out.WriteByte('\n')
	}
	if err := in.Err(); err != nil {
		panic(err)
	}
}
