import { clsx, type ClassValue } from "clsx";

/** Joins class names; later ones are not deduplicated against earlier ones, so keep variants disjoint. */
export function cn(...inputs: ClassValue[]): string {
  return clsx(inputs);
}
