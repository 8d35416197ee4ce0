// build.mjs: bundles src/activity.js with the Embedded App SDK into
// ../static/activity.js, which the server embeds. The output is deterministic (no
// source map, no time stamp, one fixed target), so CI can rebuild it and compare it
// byte for byte with the committed file (scripts/test.sh).
import { build } from "esbuild";

await build({
  entryPoints: ["src/activity.js"],
  outfile: "../static/activity.js",
  bundle: true,
  format: "iife",
  target: ["es2020"],
  minify: true,
  legalComments: "eof",
  charset: "utf8",
  logLevel: "warning",
  banner: { js: "// activity.js: built from web/activity (npm ci && npm run build); do not edit." },
});
