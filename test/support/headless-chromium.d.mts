import type { BrowserContext, Page } from 'playwright-core';
export const CHROMIUM: string;
export const CHROMIUM_MISSING: string;
export function launchChromium(options?: {
  viewport?: { width: number; height: number };
  deviceScaleFactor?: number;
}): Promise<{ context: BrowserContext; page: Page; close(): Promise<void> }>;
