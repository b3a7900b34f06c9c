import type { AddressInfo } from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";

export type ReceivedMail = { at: number; envelopeTo: string[]; mail: ParsedMail };

/** A real SMTP server on 127.0.0.1 in the test process: every message is parsed and kept. */
export async function startSmtpServer() {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream).then(
        (mail) => {
          received.push({ at: Date.now(), envelopeTo: session.envelope.rcptTo.map((r) => r.address), mail });
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    /** Mails one address received (envelope recipient). */
    to: (address: string) => received.filter((r) => r.envelopeTo.includes(address)),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
