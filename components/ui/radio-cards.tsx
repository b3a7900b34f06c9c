import type { ReactNode } from "react";

/**
 * A choice of a few options as cards, each a radio with its name and a line saying what it does
 * (the card of the chosen one outlined), under a legend; `error` is the server's word on the choice.
 */
export function RadioCards<V extends string>({
  legend,
  name,
  options,
  value,
  onChange,
  error,
  testId,
}: {
  legend: string;
  name: string;
  options: readonly { value: V; label: ReactNode; description: ReactNode }[];
  value: V;
  onChange: (value: V) => void;
  error?: string;
  testId?: string;
}) {
  return (
    <fieldset className="space-y-2" data-testid={testId}>
      <legend className="mb-1.5 text-sm font-medium">{legend}</legend>
      <div className="grid gap-2 sm:grid-cols-2">
        {options.map((option) => (
          <label key={option.value} className="flex cursor-pointer items-start gap-2 rounded-md border border-border p-3 text-sm has-[:checked]:border-primary">
            <input
              type="radio"
              name={name}
              value={option.value}
              checked={value === option.value}
              onChange={() => onChange(option.value)}
              className="mt-0.5 accent-[var(--primary)]"
            />
            <span>
              <span className="font-medium">{option.label}</span>
              <span className="block text-xs text-muted-foreground">{option.description}</span>
            </span>
          </label>
        ))}
      </div>
      {error ? (
        <p role="alert" className="text-xs text-danger">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
