import type { UserDashboardMetrics } from "@twinline/contracts";
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";

/** Credits spent per day over the last 30 days (lazy: Recharts stays out of other bundles). */
export default function CreditUseChart({
  daily,
}: {
  daily: UserDashboardMetrics["creditUsage"]["daily"];
}) {
  const data = daily.map((d) => ({ ...d, label: d.date.slice(5) }));
  return (
    <div className="h-48 w-full" data-testid="credit-use-chart">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: -16 }}>
          <CartesianGrid strokeDasharray="3 3" strokeOpacity={0.2} vertical={false} />
          <XAxis dataKey="label" tick={{ fontSize: 11 }} interval="preserveStartEnd" />
          <YAxis allowDecimals={false} tick={{ fontSize: 11 }} />
          <Tooltip
            formatter={(value) => [`${value} credits`, "Used"]}
            labelFormatter={(label) => String(label)}
          />
          <Bar dataKey="credits" fill="var(--color-brand-500)" radius={[4, 4, 0, 0]} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
