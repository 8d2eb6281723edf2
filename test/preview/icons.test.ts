import { describe, expect, it } from 'vitest';
import { listBlocks } from '../../src/registry.js';

describe('block icons', () => {
  it('gives every block its own small SVG, drawn in currentColor so it sits on the block colour', () => {
    const icons = listBlocks().map((b) => b.manifest.icon);
    expect(new Set(icons).size).toBe(icons.length);
    for (const [i, icon] of icons.entries()) {
      const where = listBlocks()[i]!.type;
      expect(icon, where).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 24 24"[^>]*>.*<\/svg>$/s);
      expect(icon, where).toContain('stroke="currentColor"');
      // Markup only: nothing that runs or loads when an editor inlines it.
      expect(icon, where).not.toMatch(/<script|<image|<use|href=|\bon[a-z]+=|url\(/i);
      expect(icon.length, where).toBeLessThan(1200);
    }
  });
});
