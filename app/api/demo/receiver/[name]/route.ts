import { answerDemoReceiver } from "@/lib/demo/answer-receiver";
import { systemCtx } from "@/lib/open-ctx";
import { errorResponse } from "@/lib/http/problem";
import { json, readText } from "@/lib/http/request";
import { served, type RouteContext } from "@/lib/http/served";

export const dynamic = "force-dynamic";

/** The embedded demo's own webhook receivers (404 unless `npm start` runs the embedded demo). */
export const POST = served(
  async (req: Request, { params }: RouteContext) => {
    try {
      const answer = await answerDemoReceiver({ ctx: systemCtx(), input: { name: String((await params).name), headers: req.headers, body: await readText(req, 1_048_576) } });
      return json(answer.body, answer.status);
    } catch (error) {
      return errorResponse(error);
    }
  },
  { api: false },
);
