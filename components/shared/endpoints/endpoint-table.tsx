"use client";

import type { UseQueryResult } from "@tanstack/react-query";
import { Link2 } from "lucide-react";
import Link from "next/link";
import type { Page } from "../api";
import { EndpointStateBadge } from "../endpoint-state-badge";
import type { Endpoint } from "../resources";
import { QueryRows } from "../query-rows";
import { StatsSparkline } from "../stats-sparkline";
import { EndpointAddress } from "./endpoint-facts";
import { Card } from "../../ui/card";
import { EmptyState } from "../../ui/empty-state";
import { TBody, THead, Table, Td, Th, Tr } from "../../ui/table";

/**
 * A consumer's endpoints with their state and last 24 hours, for the dashboard and the portal:
 * they differ in where a row links, what the empty state says, and whether the failure streak
 * shows (an extra column given as its heading and cell).
 */
export function EndpointTable({
  endpoints,
  href,
  labels,
  empty,
  extra,
}: {
  endpoints: UseQueryResult<Page<Endpoint>>;
  href: (id: string) => string;
  labels: { url: string; state: string; last24h: string; eventTypes: string; allEventTypes: string };
  empty: { title: string; description: string; action?: React.ReactNode };
  extra?: { heading: string; cell: (endpoint: Endpoint) => React.ReactNode };
}) {
  return (
    <Card>
      <QueryRows query={endpoints} isEmpty={(page) => page.data.length === 0} empty={<EmptyState icon={Link2} {...empty} />}>
        {(page) => (
          <Table>
            <THead>
              <Tr>
                <Th>{labels.url}</Th>
                <Th>{labels.state}</Th>
                <Th>{labels.last24h}</Th>
                {extra ? <Th>{extra.heading}</Th> : null}
                <Th>{labels.eventTypes}</Th>
              </Tr>
            </THead>
            <TBody>
              {page.data.map((e) => (
                <Tr key={e.id} aria-label={e.url}>
                  <Td className="max-w-md">
                    <Link href={href(e.id)} className="font-mono text-xs break-all text-primary underline-offset-2 hover:underline">
                      <EndpointAddress endpoint={e} className="" />
                    </Link>
                    {e.description ? <p className="mt-0.5 text-xs break-words text-muted-foreground">{e.description}</p> : null}
                  </Td>
                  <Td>
                    <EndpointStateBadge endpoint={e} />
                  </Td>
                  <Td>
                    <StatsSparkline endpointId={e.id} />
                  </Td>
                  {extra ? <Td className="text-xs">{extra.cell(e)}</Td> : null}
                  <Td className="text-xs break-all">{e.event_types?.join(", ") ?? labels.allEventTypes}</Td>
                </Tr>
              ))}
            </TBody>
          </Table>
        )}
      </QueryRows>
    </Card>
  );
}
