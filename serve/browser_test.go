package serve

// The browser of the web tests: one headless Chromium per test binary, started on first
// use, with a fresh profile; each page a test opens gets a browser context of its own
// (its own cookies), so two players and a spectator are three strangers.

import (
	"context"
	"os"
	"os/exec"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// chromiumPath is the browser scripts/test.sh installs (Debian's chromium).
const chromiumPath = "/usr/bin/chromium"

var browser struct {
	once   sync.Once
	ctx    context.Context // the browser's context; nil when none could start
	cancel func()
	err    error
	dir    string
}

// sharedBrowser returns the test binary's browser, starting it on first use. A machine
// without Chromium fails the test (scripts/test.sh installs it): a browser test never
// skips.
func sharedBrowser(t testing.TB) context.Context {
	t.Helper()
	browser.once.Do(func() {
		path := chromiumPath
		if p := os.Getenv("GAMBIT_TEST_CHROMIUM"); p != "" {
			path = p
		}
		if _, err := exec.LookPath(path); err != nil {
			browser.err = err
			return
		}
		dir, err := os.MkdirTemp("", "gambit-chromium-")
		if err != nil {
			browser.err = err
			return
		}
		browser.dir = dir
		opts := append(chromedp.DefaultExecAllocatorOptions[:],
			chromedp.ExecPath(path), chromedp.NoSandbox, chromedp.DisableGPU, chromedp.UserDataDir(dir),
			chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
			chromedp.Flag("disable-sync", true), chromedp.NoFirstRun, chromedp.Flag("disable-quic", true),
			chromedp.Flag("font-render-hinting", "none"), chromedp.WindowSize(1280, 900),
		)
		actx, acancel := chromedp.NewExecAllocator(context.Background(), opts...)
		bctx, bcancel := chromedp.NewContext(actx)
		// The first run starts the browser: no timeout on it, which would stop the
		// browser when it fired.
		if err := chromedp.Do(bctx); err != nil {
			bcancel()
			acancel()
			browser.err = err
			return
		}
		browser.ctx = bctx
		browser.cancel = func() { bcancel(); acancel() }
	})
	if browser.err != nil {
		t.Fatalf("start Chromium (%s; scripts/test.sh installs it): %v", chromiumPath, browser.err)
	}
	return browser.ctx
}

// closeBrowser ends the browser, if one started, and removes its profile.
func closeBrowser() {
	if browser.cancel != nil {
		browser.cancel()
	}
	if browser.dir != "" {
		_ = os.RemoveAll(browser.dir)
	}
}

// newTab opens a tab in a browser context of its own, closed when the test ends. Every
// action on it is bounded by the tab's own deadline.
func newTab(t testing.TB) context.Context {
	t.Helper()
	tab, cancel := chromedp.NewContext(sharedBrowser(t), chromedp.WithNewBrowserContext())
	if err := chromedp.Do(tab); err != nil {
		cancel()
		t.Fatalf("open a tab: %v", err)
	}
	ctx, tcancel := context.WithTimeout(tab, 3*time.Minute)
	t.Cleanup(func() { tcancel(); cancel() })
	return ctx
}
