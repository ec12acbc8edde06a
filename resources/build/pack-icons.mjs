// Packs the app icon PNGs (resources/icons/NxN.png, drawn by make-icons.mjs) into the formats the
// other platforms need, with nothing but node:fs: resources/build/icon.icns (macOS: the app and
// the .apo document icon) and resources/build/icon.ico (Windows: the app, the installer and the
// .apo file icon). Both hold the PNGs as they are (ICNS PNG entries, macOS 10.7+; PNG-in-ICO,
// Windows Vista+). test/electron-builder.test.ts checks that the committed files hold exactly
// these PNGs, so a redrawn icon that was not packed again fails the tests.
// Run: node resources/build/pack-icons.mjs
import { readFileSync, writeFileSync } from 'node:fs';

const png = (size) => readFileSync(new URL(`../icons/${size}x${size}.png`, import.meta.url));

/** ICNS entry types holding a PNG, and the pixel size each expects (Apple's icns type table). */
export const ICNS_ENTRIES = [
  ['icp4', 16],
  ['icp5', 32],
  ['icp6', 64],
  ['ic07', 128],
  ['ic08', 256],
  ['ic09', 512],
  ['ic10', 1024], // 512@2x
  ['ic11', 32], // 16@2x
  ['ic12', 64], // 32@2x
  ['ic13', 256], // 128@2x
  ['ic14', 512], // 256@2x
];

/** Sizes in the ICO; 256 is what Windows Explorer and electron-builder's NSIS target need at least. */
export const ICO_SIZES = [16, 32, 64, 128, 256];

export function icns() {
  const entries = ICNS_ENTRIES.map(([type, size]) => {
    const data = png(size);
    const header = Buffer.alloc(8);
    header.write(type, 0, 'ascii');
    header.writeUInt32BE(data.length + 8, 4);
    return Buffer.concat([header, data]);
  });
  const body = Buffer.concat(entries);
  const header = Buffer.alloc(8);
  header.write('icns', 0, 'ascii');
  header.writeUInt32BE(body.length + 8, 4);
  return Buffer.concat([header, body]);
}

export function ico() {
  const images = ICO_SIZES.map(png);
  const header = Buffer.alloc(6);
  header.writeUInt16LE(0, 0); // reserved
  header.writeUInt16LE(1, 2); // 1 = icon
  header.writeUInt16LE(images.length, 4);
  let offset = 6 + 16 * images.length;
  const directory = images.map((data, i) => {
    const size = ICO_SIZES[i];
    const entry = Buffer.alloc(16);
    entry[0] = size >= 256 ? 0 : size; // 0 means 256
    entry[1] = size >= 256 ? 0 : size;
    entry[2] = 0; // no palette
    entry[3] = 0;
    entry.writeUInt16LE(1, 4); // planes
    entry.writeUInt16LE(32, 6); // bits per pixel
    entry.writeUInt32LE(data.length, 8);
    entry.writeUInt32LE(offset, 12);
    offset += data.length;
    return entry;
  });
  return Buffer.concat([header, ...directory, ...images]);
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  writeFileSync(new URL('./icon.icns', import.meta.url), icns());
  writeFileSync(new URL('./icon.ico', import.meta.url), ico());
}
