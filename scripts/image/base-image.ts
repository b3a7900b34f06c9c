/**
 * The bases of the images built here, where no container registry is reachable, both from Debian
 * bookworm's minbase from Debian's mirror (debootstrap), slimmed as Debian's slim images are:
 * - the Dockerfile's, `node:20-bookworm-slim`: with this machine's Node.js and npm, a `node` user
 *   (uid 1000) as in the official image, and this machine's CA bundle and global npmrc (npm reaches
 *   its registry here through a certificate the stock trust store lacks);
 * - `debian:bookworm-slim`, which the PostgreSQL image of the compose check starts from.
 * Made once and kept: the debootstrap under CACHE_DIR, the images in podman's store, the first
 * remade when this machine's Node.js changes.
 */
import { execFile } from "node:child_process";
import { existsSync, readlinkSync } from "node:fs";
import { cp, mkdir, mkdtemp, rm, symlink } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { podman, runVisible } from "./podman";

const exec = promisify(execFile);

export const BASE_IMAGE = "localhost/node:20-bookworm-slim";
export const DEBIAN_IMAGE = "localhost/debian:bookworm-slim";
const CACHE_DIR = process.env.IMAGE_CACHE_DIR ?? "/var/cache/webhook-admin-image";
const MINBASE = path.join(CACHE_DIR, "bookworm-minbase.tar");
const CA_BUNDLE = "/etc/ssl/certs/ca-certificates.crt";
// What the base was made from: a different Node.js here means a different base.
const MADE_FROM = `bookworm minbase, slim, node ${process.version}`;
const DEBIAN_MADE_FROM = "bookworm minbase, slim";

async function madeFrom(image: string): Promise<string | null> {
  return podman(["image", "inspect", "--format", '{{index .Labels "webhook-admin.base"}}', image]).catch(() => null);
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

/** `image` from a slimmed minbase that `finish` completes, labelled with what it was made from. */
async function makeImage(image: string, label: string, changes: string[], say: (line: string) => void, finish?: (rootfs: string) => Promise<void>): Promise<string> {
  if ((await madeFrom(image)) === label) return image;
  say(`Making the base image ${image} (${label})…`);
  await mkdir(CACHE_DIR, { recursive: true });
  const rootfs = await mkdtemp(path.join(CACHE_DIR, "rootfs-"));
  const tarball = `${rootfs}.tar`;
  try {
    await minbase(rootfs, say);
    await slim(rootfs);
    await finish?.(rootfs);
    await exec("tar", ["-C", rootfs, "-cf", tarball, "."]);
    const change = [...changes, "ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", `LABEL webhook-admin.base="${label}"`];
    await podman(["import", ...change.flatMap((c) => ["--change", c]), tarball, image]);
  } finally {
    await rm(rootfs, { recursive: true, force: true });
    await rm(tarball, { force: true });
  }
  return image;
}

/** BASE_IMAGE, made unless podman already holds it, made from this machine's Node.js. */
export const ensureBaseImage = (say: (line: string) => void): Promise<string> =>
  makeImage(BASE_IMAGE, MADE_FROM, ['CMD ["node"]', `ENV NODE_EXTRA_CA_CERTS=${CA_BUNDLE}`], say, addNode);

/** DEBIAN_IMAGE: Debian's slim image as its official one is, with bash for a command. */
export const ensureDebianImage = (say: (line: string) => void): Promise<string> => makeImage(DEBIAN_IMAGE, DEBIAN_MADE_FROM, ['CMD ["bash"]'], say);
