// PNG files to pixels and back, for tests that compare pictures (8-bit greyscale, RGB or RGBA,
// not interlaced; what Chromium, stb and the puddle renderer write): node's zlib, no package.
import { deflateSync, inflateSync } from 'node:zlib';

const CHANNELS = { 0: 1, 2: 3, 6: 4 };

/** { width, height, rgb: Uint8Array of width x height x 3, top row first }. */
export function readPng(bytes) {
	const view = Buffer.from(bytes);
	if (view.readUInt32BE(0) !== 0x89504e47) throw new Error('not a PNG');
	let at = 8, width = 0, height = 0, channels = 0;
	const data = [];
	while (at < view.length) {
		const length = view.readUInt32BE(at), type = view.toString('latin1', at + 4, at + 8);
		const body = view.subarray(at + 8, at + 8 + length);
		if (type === 'IHDR') {
			width = body.readUInt32BE(0);
			height = body.readUInt32BE(4);
			channels = CHANNELS[body[9]];
			if (body[8] !== 8 || !channels || body[12] !== 0) throw new Error(`PNG: unsupported format (depth ${body[8]}, colour type ${body[9]}, interlace ${body[12]})`);
		} else if (type === 'IDAT') data.push(body);
		else if (type === 'IEND') break;
		at += 12 + length;
	}
	const raw = inflateSync(Buffer.concat(data)), stride = width * channels;
	const pixels = new Uint8Array(height * stride);
	for (let y = 0; y < height; ++y) {
		const filter = raw[y * (stride + 1)], line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
		const out = pixels.subarray(y * stride, (y + 1) * stride), up = y > 0 ? pixels.subarray((y - 1) * stride, y * stride) : null;
		for (let i = 0; i < stride; ++i) {
			const a = i >= channels ? out[i - channels] : 0, b = up ? up[i] : 0, c = up && i >= channels ? up[i - channels] : 0;
			let p = line[i];
			if (filter === 1) p += a;
			else if (filter === 2) p += b;
			else if (filter === 3) p += (a + b) >> 1;
			else if (filter === 4) {
				const e = a + b - c, pa = Math.abs(e - a), pb = Math.abs(e - b), pc = Math.abs(e - c);
				p += pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
			}
			out[i] = p & 255;
		}
	}
	const rgb = new Uint8Array(width * height * 3);
	for (let i = 0; i < width * height; ++i)
		for (let k = 0; k < 3; ++k) rgb[3 * i + k] = pixels[i * channels + (channels === 1 ? 0 : k)];
	return { width, height, rgb };
}

function crc32(bytes) {
	let c = ~0;
	for (const b of bytes) {
		c ^= b;
		for (let k = 0; k < 8; ++k) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
	}
	return ~c >>> 0;
}

/** An RGB PNG of { width, height, rgb } (top row first). */
export function writePng({ width, height, rgb }) {
	const raw = Buffer.alloc(height * (3 * width + 1));
	for (let y = 0; y < height; ++y) Buffer.from(rgb.buffer, rgb.byteOffset + 3 * width * y, 3 * width).copy(raw, y * (3 * width + 1) + 1);
	const chunk = (type, body) => {
		const head = Buffer.alloc(8);
		head.writeUInt32BE(body.length, 0);
		head.write(type, 4, 'latin1');
		const crc = Buffer.alloc(4);
		crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), body])));
		return Buffer.concat([head, body, crc]);
	};
	const ihdr = Buffer.alloc(13);
	ihdr.writeUInt32BE(width, 0);
	ihdr.writeUInt32BE(height, 4);
	ihdr[8] = 8;
	ihdr[9] = 2;
	return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr),
		chunk('IDAT', deflateSync(raw, { level: 9 })), chunk('IEND', Buffer.alloc(0))]);
}
