import type { DashboardSeriesPoint } from "@twinline/contracts";
import type { ReactNode } from "react";
import {
  Area,
  AreaChart,
  Bar,
  BarChart,
  CartesianGrid,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import { Card } from "@/components/ui/card";
import { formatMoney } from "@/lib/format";

function ChartCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card className="p-4">
      <h3 className="mb-3 text-sm font-semibold text-stone-700 dark:text-stone-200">{title}</h3>
      <div className="h-56 w-full">{children}</div>
    </Card>
  );
}

const axis = { tick: { fontSize: 11 }, stroke: "var(--color-stone-400)" };
/** The Y axis as wide as its longest label ("$1,400.00"): a fixed width cut it (issue 24). */
const yAxis = { ...axis, width: "auto" as const };
const margin = { top: 4, right: 4, bottom: 0, left: 0 };

/** Daily sign-ups, revenue and call minutes (lazy: Recharts is its own chunk). */
export default function SeriesCharts({ points }: { points: DashboardSeriesPoint[] }) {
  const data = points.map((p) => ({ ...p, label: p.date.slice(5) }));
  return (
    <div className="grid gap-4 lg:grid-cols-3" data-testid="series-charts">
      <ChartCard title="Daily sign-ups">
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={data} margin={margin}>
            <CartesianGrid strokeDasharray="3 3" strokeOpacity={0.2} vertical={false} />
            <XAxis dataKey="label" {...axis} interval="preserveStartEnd" />
            <YAxis allowDecimals={false} {...yAxis} />
            <Tooltip formatter={(value) => [String(value), "Sign-ups"]} />
            <Bar dataKey="signups" fill="var(--color-brand-500)" radius={[3, 3, 0, 0]} />
          </BarChart>
        </ResponsiveContainer>
      </ChartCard>
      <ChartCard title="Daily revenue (USD)">
        <ResponsiveContainer width="100%" height="100%">
          <AreaChart data={data} margin={margin}>
            <CartesianGrid strokeDasharray="3 3" strokeOpacity={0.2} vertical={false} />
            <XAxis dataKey="label" {...axis} interval="preserveStartEnd" />
            <YAxis {...yAxis} tickFormatter={(v: number) => formatMoney(v, "usd")} />
            <Tooltip formatter={(value) => [formatMoney(Number(value), "usd"), "Revenue"]} />
            <Area
              dataKey="revenue"
              type="monotone"
              stroke="var(--color-emerald-500)"
              fill="var(--color-emerald-500)"
              fillOpacity={0.2}
            />
          </AreaChart>
        </ResponsiveContainer>
      </ChartCard>
      <ChartCard title="Daily call minutes">
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={data} margin={margin}>
            <CartesianGrid strokeDasharray="3 3" strokeOpacity={0.2} vertical={false} />
            <XAxis dataKey="label" {...axis} interval="preserveStartEnd" />
            <YAxis allowDecimals={false} {...yAxis} />
            <Tooltip formatter={(value) => [String(value), "Minutes"]} />
            <Bar dataKey="callMinutes" fill="var(--color-sky-500)" radius={[3, 3, 0, 0]} />
          </BarChart>
        </ResponsiveContainer>
      </ChartCard>
    </div>
  );
}
