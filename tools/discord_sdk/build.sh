#!/usr/bin/env bash
# Makes bot/web/static/vendor/discord-embedded-app-sdk.mjs: Discord's Embedded App SDK as one
# self-contained ES module, so the page imports it from the bot's own server and neither
# installing nor running the bot needs Node. A maintainer runs this only to change the SDK's
# version; its three outputs are committed. The same package-lock.json gives byte-identical
# outputs (esbuild is deterministic for the same inputs and flags).
#
# Also writes, beside the bundle:
#   discord-embedded-app-sdk.LICENSES.txt  the licence of every package with code in the bundle
#   discord-embedded-app-sdk.json          version, integrity, sha256 and those packages
#
# Needs node and npm, and the npm registry. To change a version: edit package.json, then
#   npm install --package-lock-only --ignore-scripts --omit-lockfile-registry-resolved
# (the lock keeps only integrity hashes, so it works with whichever registry npm is set to).
#
# Why package.json lists the SDK's dependencies too: the SDK's output/index.mjs does not import
# them from node_modules; Discord's own build (rollup) already copied them into the package,
# under output/lib/<name>/. Those copies are what ends up in the bundle, at the versions of
# Discord's lockfile for the release, which npm cannot tell us (the tarball has no lockfile)
# and which differ from what the SDK's ranges resolve to today (zod 3.23.8 against 3.25.x,
# whose LICENSE differs). So package.json pins each at the version Discord's lockfile for the
# release tag has (big-integer, decimal.js-light, eventemitter3, lodash.transform, tslib,
# uuid, zod), to take its licence text and version from the very package that was copied;
# nothing is bundled from those folders themselves. On an SDK update, re-read the release
# tag's package-lock.json and pin again; this script refuses a copy whose package is not
# installed, and one whose version banner names another version.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
vendor="$root/bot/web/static/vendor"
name="discord-embedded-app-sdk"
sdk="@discord/embedded-app-sdk"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

cp "$here/package.json" "$here/package-lock.json" "$work/"
cd "$work"
# no install scripts: none of these packages needs one (esbuild's only checks its binary,
# which npm installs as the optional package for this platform)
npm ci --ignore-scripts --no-audit --no-fund --loglevel=error

# re-exports the package's whole index, so a name the SDK adds is not left out; the SDK has no
# default export, which `export *` would drop (the export check below would catch it)
printf 'export * from "%s";\n' "$sdk" > entry.mjs

sdk_version="$(node -p "require('./node_modules/$sdk/package.json').version")"
esbuild_version="$(node_modules/.bin/esbuild --version)"

# --legal-comments=none: the licences go in full, each from its package's own licence file,
# into the LICENSES file beside the bundle; the in-source comments esbuild would keep are
# fewer and shorter (most of these libraries have no /*! or @license comment at all). The
# banner says where to find them.
node_modules/.bin/esbuild entry.mjs \
  --bundle --format=esm --platform=browser --target=es2020 --minify \
  --legal-comments=none \
  "--banner:js=/*! $sdk $sdk_version, bundled with its dependencies; licences: $name.LICENSES.txt */" \
  --metafile=meta.json --outfile="out/$name.mjs" --log-level=warning

# the bundle must export exactly what the package's index exports
node --input-type=module - "$sdk" "$work/out/$name.mjs" <<'EOF'
const [sdk, bundle] = process.argv.slice(2);
const want = Object.keys(await import(sdk)).sort();
const got = Object.keys(await import(bundle)).sort();
if (JSON.stringify(want) !== JSON.stringify(got)) {
  console.error(`exports differ:\n package: ${want}\n bundle:  ${got}`);
  process.exit(1);
}
EOF

node --input-type=module - "$sdk" "$name" "$esbuild_version" out <<'EOF'
import { createHash } from "node:crypto";
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const [sdk, name, esbuildVersion, out] = process.argv.slice(2);
const meta = JSON.parse(readFileSync("meta.json", "utf8"));
const lock = JSON.parse(readFileSync("package-lock.json", "utf8"));
const sdkPath = `node_modules/${sdk}`;

// "node_modules/a/b/node_modules/@s/c/x.js" -> ["@s/c", "x.js"]: the innermost package
function splitPackage(path) {
  const rest = path.slice(path.lastIndexOf("node_modules/") + "node_modules/".length);
  const parts = rest.split("/");
  const n = parts[0].startsWith("@") ? 2 : 1;
  return [parts.slice(0, n).join("/"), parts.slice(n).join("/")];
}

// the packages whose code is in the bundle: the inputs esbuild put bytes of into the output
const outputs = Object.values(meta.outputs);
if (outputs.length !== 1) throw new Error(`expected one output, got ${outputs.length}`);
const copies = new Map(); // a package copied into the SDK -> its files in the bundle
const found = new Set();
for (const [path, input] of Object.entries(outputs[0].inputs)) {
  if (input.bytesInOutput === 0) continue;
  if (!path.includes("node_modules/")) {
    if (path !== "entry.mjs") throw new Error(`bundled file outside node_modules: ${path}`);
    continue;
  }
  const [pkg, file] = splitPackage(path);
  found.add(pkg);
  // the SDK's copy of a dependency (see build.sh); its first folder is the package's name
  if (pkg === sdk && file.startsWith("output/lib/")) {
    const parts = file.slice("output/lib/".length).split("/");
    const copied = parts.slice(0, parts[0].startsWith("@") ? 2 : 1).join("/");
    if (!copies.has(copied)) copies.set(copied, []);
    copies.get(copied).push(path);
  }
}
for (const pkg of copies.keys()) found.add(pkg);

const LICENCE_FILE = /^(licen[cs]e|copying)([.-].*)?$/i;
const packages = [...found].sort().map((pkg) => {
  const folder = `node_modules/${pkg}`;
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(`${folder}/package.json`, "utf8"));
  } catch {
    throw new Error(`the SDK bundles a copy of ${pkg}, which is not installed: pin it in ` +
                    "package.json at the version of the SDK release's lockfile");
  }
  // a copy that names its own version (e.g. "decimal.js-light v2.5.1") must name this one
  for (const path of copies.get(pkg) ?? []) {
    const escaped = pkg.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    const banner = readFileSync(path, "utf8").match(new RegExp(`${escaped} v(\\d+\\.\\d+\\.\\d+)`));
    if (banner && banner[1] !== manifest.version) {
      throw new Error(`${path} is ${pkg} ${banner[1]}, but ${manifest.version} is installed`);
    }
  }
  const licence = typeof manifest.license === "string" ? manifest.license
    : manifest.license?.type ?? (manifest.licenses ?? []).map((l) => l.type ?? l).join(" OR ");
  const files = readdirSync(folder).filter((f) => LICENCE_FILE.test(f)).sort();
  const texts = files.map((f) => [f, readFileSync(join(folder, f), "utf8").trim()]);
  return { name: pkg, version: manifest.version, license: licence || "UNKNOWN",
           copied: copies.has(pkg), texts };
});

const bundle = readFileSync(`${out}/${name}.mjs`);
const sdkVersion = packages.find((p) => p.name === sdk).version;
const rule = "=".repeat(78);
const lines = [
  `${name}.mjs is Discord's Embedded App SDK, ${sdk} ${sdkVersion},`,
  `bundled into one ES module by tools/discord_sdk/build.sh with esbuild ${esbuildVersion}.`,
  "It contains code of each package below, whose licence follows as its installed package",
  `has it. The SDK's package already holds the packages marked "Copied into the SDK"`,
  "(Discord's build put them in it), at the versions of Discord's lockfile for the release.",
];
for (const p of packages) {
  lines.push("", rule, `${p.name}@${p.version}`, `License: ${p.license}`);
  if (p.copied && p.name !== sdk) lines.push(`Copied into the SDK by Discord's build, as ${sdk}/output/lib/${p.name}`);
  if (p.texts.length === 0) {
    lines.push(`The package has no licence file; its package.json says: ${p.license}`);
  }
  for (const [file, text] of p.texts) lines.push(`--- ${file}`, "", text);
}
writeFileSync(`${out}/${name}.LICENSES.txt`, lines.join("\n") + "\n");

// JSON with its keys sorted at every level, two spaces, a final newline: the same bytes for
// the same build
function sorted(value) {
  if (Array.isArray(value)) return value.map(sorted);
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.keys(value).sort().map((k) => [k, sorted(value[k])]));
  }
  return value;
}
const integrity = lock.packages[sdkPath]?.integrity;
if (!integrity) throw new Error(`no integrity for ${sdkPath} in package-lock.json`);
const summary = {
  package: sdk,
  version: sdkVersion,
  integrity,
  esbuild: esbuildVersion,
  sha256: createHash("sha256").update(bundle).digest("hex"),
  bundled: packages.map(({ name, version, license }) => ({ name, version, license })),
};
writeFileSync(`${out}/${name}.json`, JSON.stringify(sorted(summary), null, 2) + "\n");
EOF

mkdir -p "$vendor"
cp "out/$name.mjs" "out/$name.LICENSES.txt" "out/$name.json" "$vendor/"
echo "wrote $vendor/$name.{mjs,LICENSES.txt,json}: $(wc -c < "out/$name.mjs") bytes"
