/**
 * The Dockerfile's base, `node:20-bookworm-slim`, made on this machine where no container registry
 * is reachable: Debian bookworm's minbase from Debian's mirror (debootstrap), slimmed as Debian's
 * slim images are, this machine's Node.js and npm, a `node` user (uid 1000) as in the official
 * image, and this machine's CA bundle and global npmrc (npm reaches its registry here through a
 * certificate the stock trust store lacks).
 * Made once and kept: the debootstrap under CACHE_DIR, the image in podman's store, remade when
 * this machine's Node.js changes.
 */
import { execFile } from "node:child_process";
import { existsSync, readlinkSync } from "node:fs";
import { cp, mkdir, mkdtemp, rm, symlink } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { podman, runVisible } from "./podman";

const exec = promisify(execFile);

export const BASE_IMAGE = "localhost/node:20-bookworm-slim";
const CACHE_DIR = process.env.IMAGE_CACHE_DIR ?? "/var/cache/webhook-admin-image";
const MINBASE = path.join(CACHE_DIR, "bookworm-minbase.tar");
const CA_BUNDLE = "/etc/ssl/certs/ca-certificates.crt";
// What the base was made from: a different Node.js here means a different base.
const MADE_FROM = `bookworm minbase, slim, node ${process.version}`;

async function madeFrom(): Promise<string | null> {
  return podman(["image", "inspect", "--format", '{{index .Labels "webhook-admin.base"}}', BASE_IMAGE]).catch(() => null);
}

/** The rootfs of Debian bookworm's minbase in `dir`, from the cached debootstrap when there is one. */
async function minbase(dir: string, say: (line: string) => void): Promise<void> {
  if (existsSync(MINBASE)) {
    await exec("tar", ["-C", dir, "-xf", MINBASE]);
    return;
  }
  say("Making Debian bookworm's minbase (debootstrap, a few minutes, once)…");
  await runVisible("debootstrap", ["--variant=minbase", "bookworm", dir, "http://deb.debian.org/debian"]);
  await rm(path.join(dir, "var/cache/apt/archives"), { recursive: true, force: true });
  await mkdir(path.join(dir, "var/cache/apt/archives/partial"), { recursive: true });
  await exec("tar", ["-C", dir, "-cf", `${MINBASE}.tmp`, "."]);
  await exec("mv", [`${MINBASE}.tmp`, MINBASE]);
}

/**
 * What Debian's slim images leave out (about 100 MB of minbase's 184): apt's package lists,
 * documentation but the copyright files, manuals and translations — so that the image measured
 * here is what it is on the official base.
 */
async function slim(rootfs: string): Promise<void> {
  await exec("find", [path.join(rootfs, "usr/share/doc"), "-mindepth", "1", "!", "-name", "copyright", "!", "-type", "d", "-delete"]);
  for (const dir of ["var/lib/apt/lists", "usr/share/man", "usr/share/info", "usr/share/locale"]) {
    await rm(path.join(rootfs, dir), { recursive: true, force: true });
    await mkdir(path.join(rootfs, dir), { recursive: true });
  }
  await mkdir(path.join(rootfs, "var/lib/apt/lists/partial"), { recursive: true });
}

/** This machine's Node.js and npm, where they are here (npm finds its global npmrc by its prefix). */
async function addNode(rootfs: string): Promise<void> {
  const node = process.execPath;
  const prefix = path.dirname(path.dirname(node));
  const inside = (file: string) => path.join(rootfs, file);
  await cp(node, inside(node));
  await cp(path.join(prefix, "lib/node_modules/npm"), inside(path.join(prefix, "lib/node_modules/npm")), { recursive: true, verbatimSymlinks: true });
  for (const bin of ["npm", "npx"]) {
    const link = path.join(path.dirname(node), bin);
    await rm(inside(link), { force: true });
    await symlink(readlinkSync(link), inside(link));
  }
  const npmrc = path.join(prefix, "etc/npmrc");
  if (existsSync(npmrc)) {
    await mkdir(path.dirname(inside(npmrc)), { recursive: true });
    await cp(npmrc, inside(npmrc));
  }
  await mkdir(path.dirname(inside(CA_BUNDLE)), { recursive: true });
  await cp(CA_BUNDLE, inside(CA_BUNDLE));
  await exec("chroot", [rootfs, "groupadd", "--gid", "1000", "node"]);
  await exec("chroot", [rootfs, "useradd", "--uid", "1000", "--gid", "node", "--shell", "/bin/bash", "--create-home", "node"]);
}

/** BASE_IMAGE, made unless podman already holds it, made from this machine's Node.js. */
export async function ensureBaseImage(say: (line: string) => void): Promise<string> {
  if ((await madeFrom()) === MADE_FROM) return BASE_IMAGE;
  say(`Making the base image ${BASE_IMAGE} (${MADE_FROM})…`);
  await mkdir(CACHE_DIR, { recursive: true });
  const rootfs = await mkdtemp(path.join(CACHE_DIR, "rootfs-"));
  const tarball = `${rootfs}.tar`;
  try {
    await minbase(rootfs, say);
    await slim(rootfs);
    await addNode(rootfs);
    await exec("tar", ["-C", rootfs, "-cf", tarball, "."]);
    await podman([
      "import",
      "--change", 'CMD ["node"]',
      "--change", "ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
      "--change", `ENV NODE_EXTRA_CA_CERTS=${CA_BUNDLE}`,
      "--change", `LABEL webhook-admin.base="${MADE_FROM}"`,
      tarball,
      BASE_IMAGE,
    ]);
  } finally {
    await rm(rootfs, { recursive: true, force: true });
    await rm(tarball, { force: true });
  }
  return BASE_IMAGE;
}
