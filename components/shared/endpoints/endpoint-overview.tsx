"use client";

import Link from "next/link";
import type { ReactNode } from "react";
import { EndpointStatsChart } from "../endpoint-stats-chart";
import { Card } from "../../ui/card";

const linkClass = "text-sm font-medium text-primary underline-offset-2 hover:underline";

/**
 * The body of an endpoint's page, in the dashboard and in the portal alike: its delivery chart
 * beside a card of its facts and where to go from it, then (when it delivers in order) its lines
 * across the page, then its signing secret and a test send, then its payload filter across the page.
 * What each side shows (and may do) is theirs: `facts` are the card's <dt>/<dd> pairs.
 */
export function EndpointOverview(props: {
  endpointId: string;
  /** A polling endpoint: its chart's times are waits until polled, not response times. */
  polled: boolean;
  statsTitle: string;
  factsTitle: string;
  facts: ReactNode;
  links: { href: string; label: string }[];
  secretCard: ReactNode;
  testCard: ReactNode;
  /** The ordering card, or null when the endpoint delivers in any order. */
  orderingCard: ReactNode;
  filterCard: ReactNode;
}) {
  return (
    <div className="grid gap-4 lg:grid-cols-3">
      <Card className="p-4 lg:col-span-2">
        <h2 className="mb-3 text-sm font-semibold">{props.statsTitle}</h2>
        <EndpointStatsChart endpointId={props.endpointId} polled={props.polled} />
      </Card>
      <Card className="p-4">
        <h2 className="mb-3 text-sm font-semibold">{props.factsTitle}</h2>
        <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-2 text-sm">{props.facts}</dl>
        <div className="mt-4 flex flex-col gap-2">
          {props.links.map((l) => (
            <Link key={l.href} className={linkClass} href={l.href}>
              {l.label}
            </Link>
          ))}
        </div>
      </Card>
      {props.orderingCard ? <div className="lg:col-span-3">{props.orderingCard}</div> : null}
      {props.secretCard}
      <div className="lg:col-span-2">{props.testCard}</div>
      <div className="lg:col-span-3">{props.filterCard}</div>
    </div>
  );
}
