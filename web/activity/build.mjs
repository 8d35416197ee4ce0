// build.mjs: bundles src/activity.js with the Embedded App SDK into
// ../static/activity.js, which the server embeds. The output is deterministic (no
// source map, no time stamp, one fixed target), so CI can rebuild it and compare it
// byte for byte with the committed file (scripts/activity-bundle.sh). An argument
// names another output file (the check builds into a temporary one).
import { build } from "esbuild";

const outfile = process.argv[2] || "../static/activity.js";

await build({
  entryPoints: ["src/activity.js"],
  outfile,
  bundle: true,
  format: "iife",
  target: ["es2020"],
  minify: true,
  legalComments: "eof",
  charset: "utf8",
  logLevel: "warning",
  banner: { js: "// activity.js: built from web/activity (npm ci && npm run build); do not edit." },
});
