// What the browser scripts share: starting `fianchetto serve` and Debian's Chromium.
import { spawn } from "node:child_process";
import { chromium } from "playwright-core";

/// The longest any wait for the page or the server may take, ms.
export const LIVENESS = 30000;

// Starts `BIN serve --port 0 ARGS…`; resolves to the process, its URL and what it printed.
export function serve(bin, args = []) {
  const server = spawn(bin, ["serve", "--port", "0", ...args], { stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    let out = "";
    server.stdout.on("data", (d) => {
      out += d;
      const m = out.match(/http:\/\/[\d.]+:\d+\//);
      if (m) resolve({ server, url: m[0], out });
    });
    server.on("exit", (code) => reject(new Error(`server exited with ${code}: ${out}`)));
    setTimeout(() => reject(new Error(`no URL from the server: ${out}`)), LIVENESS);
  });
}

// Debian's headless Chromium (or $CHROMIUM), without the network chatter a test does not want.
export function launchBrowser() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
}
