import { inflateSync } from 'node:zlib';

/** A decoded PNG: its size and RGBA pixels, row by row. */
export interface DecodedPng {
  width: number;
  height: number;
  /** 4 bytes per pixel. */
  pixels: Buffer;
}

/**
 * Decodes an 8-bit RGBA or RGB, non-interlaced PNG (what resvg writes) with node:zlib, so that tests can look at
 * the pixels of what the server served. Throws on anything else, or on a file that is not a PNG.
 */
export function decodePng(file: Buffer): DecodedPng {
  if (!file.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) throw new Error('not a PNG');
  let offset = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const data: Buffer[] = [];
  while (offset < file.length) {
    const length = file.readUInt32BE(offset);
    const type = file.toString('latin1', offset + 4, offset + 8);
    const chunk = file.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      width = chunk.readUInt32BE(0);
      height = chunk.readUInt32BE(4);
      const [depth, colour, , , interlace] = chunk.subarray(8, 13);
      if (depth !== 8 || interlace !== 0 || (colour !== 6 && colour !== 2)) throw new Error(`unsupported PNG (depth ${depth}, colour ${colour})`);
      channels = colour === 6 ? 4 : 3;
    } else if (type === 'IDAT') data.push(chunk);
    offset += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(data));
  const stride = width * channels;
  const rows = Buffer.alloc(height * stride);
  for (let y = 0; y < height; y += 1) {
    const filter = raw[y * (stride + 1)]!;
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; x += 1) {
      const left = x >= channels ? rows[y * stride + x - channels]! : 0;
      const up = y > 0 ? rows[(y - 1) * stride + x]! : 0;
      const upLeft = y > 0 && x >= channels ? rows[(y - 1) * stride + x - channels]! : 0;
      const predictor = [0, left, up, (left + up) >> 1, paeth(left, up, upLeft)][filter];
      if (predictor === undefined) throw new Error(`bad PNG filter ${filter}`);
      rows[y * stride + x] = (line[x]! + predictor) & 0xff;
    }
  }
  if (channels === 4) return { width, height, pixels: rows };
  const pixels = Buffer.alloc(width * height * 4, 0xff);
  for (let i = 0; i < width * height; i += 1) rows.copy(pixels, i * 4, i * 3, i * 3 + 3);
  return { width, height, pixels };
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** How many pixels have exactly this colour (`#rrggbb`, opaque). */
export function countColour(png: DecodedPng, hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));
  let count = 0;
  for (let i = 0; i < png.pixels.length; i += 4) {
    if (png.pixels[i] === r && png.pixels[i + 1] === g && png.pixels[i + 2] === b && png.pixels[i + 3] === 255) count += 1;
  }
  return count;
}
