/**
 * Asks for a secret at the terminal without echoing it (the terminal in raw mode, nothing written
 * back): for a token that must not be given in argv, where `ps` and shell history would show it.
 * Resolves with what was typed up to Enter; Ctrl-C or Ctrl-D on an empty line rejects.
 */
export function readSecret(prompt: string): Promise<string> {
  const { stdin, stderr } = process;
  stderr.write(prompt);
  stdin.setRawMode(true);
  stdin.setEncoding("utf8");
  stdin.resume();
  return new Promise((resolve, reject) => {
    let value = "";
    const finish = (outcome: () => void) => {
      stdin.off("data", onData);
      stdin.setRawMode(false);
      stdin.pause();
      stderr.write("\n");
      outcome();
    };
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (char === "\r" || char === "\n") return finish(() => resolve(value));
        if (char === "\u0003" || (char === "\u0004" && value === "")) return finish(() => reject(new Error("no token given")));
        if (char === "\u007f" || char === "\b") value = value.slice(0, -1);
        else if (char >= " ") value += char;
      }
    };
    stdin.on("data", onData);
  });
}
