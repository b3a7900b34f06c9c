import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { LOCALES } from "../../lib/i18n/locale";

/** Every string exists in every language: the key sets of messages/<locale>.json are identical. */
type Tree = { [key: string]: string | Tree };

function keys(tree: Tree, prefix = ""): string[] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === "string" ? [`${prefix}${key}`] : keys(value, `${prefix}${key}.`),
  );
}

const load = (locale: string) => JSON.parse(readFileSync(`messages/${locale}.json`, "utf8")) as Tree;

describe("messages", () => {
  const english = keys(load("en")).sort();

  it.each(LOCALES.filter((l) => l !== "en"))("%s has exactly the English keys", (locale) => {
    expect(keys(load(locale)).sort()).toEqual(english);
  });

  it.each(LOCALES)("%s has no empty string and keeps each ICU argument of English", (locale) => {
    const en = load("en");
    const other = load(locale);
    const lookup = (tree: Tree, key: string) => key.split(".").reduce<string | Tree | undefined>((at, part) => (typeof at === "object" ? at[part] : undefined), tree) as string;
    for (const key of english) {
      const text = lookup(other, key);
      expect(text.trim(), `${locale}: ${key}`).not.toBe("");
      // An argument is `{name}` or `{name, type…}`; a plural branch's text (`{No event…}`) is not one.
      const args = (s: string) => [...s.matchAll(/\{(\w+)\s*[,}]/g)].map((m) => m[1]).sort();
      expect(new Set(args(text)), `${locale}: ${key}`).toEqual(new Set(args(lookup(en, key))));
    }
  });
});
