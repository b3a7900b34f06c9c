import { answerDemoReceiver } from "@/lib/demo/answer-receiver";
import { errorResponse } from "@/lib/http/problem";
import { json, readText } from "@/lib/http/request";

export const dynamic = "force-dynamic";

/** The embedded demo's own webhook receivers (404 unless `npm start` runs the embedded demo). */
export async function POST(req: Request, { params }: { params: Promise<{ name: string }> }) {
  try {
    const answer = await answerDemoReceiver({ name: (await params).name, headers: req.headers, body: await readText(req, 1_048_576) });
    return json(answer.body, answer.status);
  } catch (error) {
    return errorResponse(error);
  }
}
