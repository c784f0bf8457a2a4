package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// The names the server answers to: loopback listeners only -allowed-hosts
// (IP addresses and localhost always); -addr's name; this machine's name
// when listening beyond loopback.
func TestHostNames(t *testing.T) {
	machine := func() (string, error) { return "box", nil }
	for _, c := range []struct {
		addr, flag string
		want       []string
	}{
		{"localhost:8080", "", nil},
		{"127.0.0.1:8080", "chat.example.org, *.corp.example", []string{"chat.example.org", "*.corp.example"}},
		{"[::1]:8080", "", nil},
		{":8080", "", []string{"box", "box.local"}},
		{"0.0.0.0:8080", "a.example", []string{"a.example", "box", "box.local"}},
		{"192.168.1.20:8080", "", []string{"box", "box.local"}},
		{"chat.example.org:443", "", []string{"chat.example.org", "box", "box.local"}},
	} {
		assert.Equal(t, c.want, hostNames(c.addr, c.flag, machine), "%s %q", c.addr, c.flag)
	}
}
