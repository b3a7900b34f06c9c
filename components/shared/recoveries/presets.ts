export const SINCE_PRESETS = { "1h": 3_600_000, "8h": 8 * 3_600_000, "24h": 24 * 3_600_000, "7d": 7 * 24 * 3_600_000 } as const;
export type SincePreset = keyof typeof SINCE_PRESETS | "custom";
