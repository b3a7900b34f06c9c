import { createTranslator, IntlErrorCode } from "next-intl";
import { describe, expect, it } from "vitest";
import en from "../../messages/en.json";
import ja from "../../messages/ja.json";

type Tree = { [key: string]: string | Tree };

function leaves(tree: Tree, prefix = ""): [string, string][] {
  return Object.entries(tree).flatMap(([key, value]) => (typeof value === "string" ? [[`${prefix}${key}`, value] as [string, string]] : leaves(value, `${prefix}${key}.`)));
}

/** The argument names a message uses, e.g. `{count, number}` → count (ICU quoting aside, which the catalogs do not use). */
const argumentsOf = (message: string) => [...new Set([...message.matchAll(/\{\s*(\w+)\s*[,}]/g)].map((m) => m[1]!))].sort();

describe("the message catalogs", () => {
  const catalogs = { en: en as Tree, ja: ja as Tree };

  it("hold the same keys, with the same arguments, in English and Japanese", () => {
    const english = new Map(leaves(catalogs.en));
    const japanese = new Map(leaves(catalogs.ja));
    expect([...japanese.keys()].sort()).toEqual([...english.keys()].sort());
    for (const [key, message] of english) expect(argumentsOf(japanese.get(key)!), key).toEqual(argumentsOf(message));
  });

  it.each(Object.keys(catalogs) as (keyof typeof catalogs)[])("parses every %s message as ICU (a stray brace would show its key instead)", (locale) => {
    const invalid: string[] = [];
    const t = createTranslator({
      locale,
      messages: catalogs[locale],
      onError: (error) => {
        // Formatting without the arguments fails too; only a message that does not parse is wrong.
        if (error.code !== IntlErrorCode.FORMATTING_ERROR) invalid.push(error.message);
      },
    });
    for (const [key] of leaves(catalogs[locale])) t(key as never);
    expect(invalid).toEqual([]);
  });
});
