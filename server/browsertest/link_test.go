//go:build browser

package browsertest

import (
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// link is an emulated network link (Chromium's network throttling): a
// minimum latency to each response's headers and a bandwidth that all the
// tab's requests share.
type link struct {
	name      string
	latencyMs float64
	downBps   float64 // bytes per second
	upBps     float64
}

// link20 is issue 13's link: 20 Mbit/s, 40 ms.
var link20 = link{name: "20 Mbit/s, 40 ms", latencyMs: 40, downBps: 20e6 / 8, upBps: 20e6 / 8}

// throttle puts the tab behind l before anything is loaded. (cdproto no
// longer has the deprecated Network.emulateNetworkConditions; its
// successor with one rule for every URL throttles the same way.)
func (p *page) throttle(l link) {
	p.t.Helper()
	if _, err := chromedp.Call(p.ctx, network.Enable, network.EnableParams{}); err != nil {
		p.t.Fatalf("network: %v", err)
	}
	_, err := chromedp.Call(p.ctx, network.EmulateNetworkConditionsByRule, network.EmulateNetworkConditionsByRuleParams{
		MatchedNetworkConditions: []*network.Conditions{{
			Latency: l.latencyMs, DownloadThroughput: l.downBps, UploadThroughput: l.upBps,
		}},
	})
	if err != nil {
		p.t.Fatalf("throttling: %v", err)
	}
}
