#!/usr/bin/env python3
"""End-to-end tests of puddle-view: start the real viewer (under xvfb-run, on llvmpipe) on a
scene with a script of input events, run a fixed number of frames, save a screenshot and a JSON
report, and check what a person would see.

    viewer_test.py --viewer build/apps/viewer/puddle-view --scripts apps/viewer/tests CASE

CASE is one of: picture, dots, drag, obstacle, pour, keys, scenes, cli, bodies, and for 3D worlds
picture3d, orbit3d, interact3d, bodies3d. Only the Python standard library
is used (the PNG is decoded with zlib), so the test needs nothing beyond python3.
"""
import argparse
import json
import math
import os
import random
import struct
import subprocess
import sys
import tempfile
import zlib

WINDOW = "1100x700"
# The window of the 3D runs whose checks read the report alone, and of those whose screenshot is
# drawn after growing the window to WINDOW for the last GROWN_FRAMES frames (grown_script): the
# same 11:7 view at a sixteenth of the pixels. Drawing is most of a 3D display test's CPU
# (llvmpipe drew the liquid look at 1100x700 in 0.3-0.6 s a frame, the step took 0.03 s), and the
# world does not see the window: a script's mouse positions in 3D are in the view's -1..1 and the
# camera frames the same view, so the mouse rays are the same.
REPORT_ONLY = "275x175"
GROWN_FRAMES = 5


class Failure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)
    print("ok:", message)


def run_display_test(main):
    """Runs a display test's main(viewer, work) with --viewer and --work from the command line
    (work made if missing); exits 1 with the reason on a failed check."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--viewer", required=True)
    parser.add_argument("--work", required=True)
    a = parser.parse_args()
    os.makedirs(a.work, exist_ok=True)
    try:
        main(a.viewer, a.work)
    except Failure as e:
        print("FAIL:", e)
        sys.exit(1)


# ---- PNG --------------------------------------------------------------------------------------

def read_png(path):
    """Returns (width, height, rows) with rows[y][x] = (r, g, b). 8-bit RGB or RGBA only."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise Failure(f"{path} is not a PNG")
    pos, idat = 8, b""
    width = height = channels = 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            width, height, depth, color_type = struct.unpack(">IIBB", body[:10])
            if depth != 8 or color_type not in (2, 6):
                raise Failure(f"{path}: unsupported PNG format {depth}/{color_type}")
            channels = 3 if color_type == 2 else 4
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        filter_type = raw[start]
        line = bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            up_left = previous[i - channels] if i >= channels else 0
            if filter_type == 1:
                line[i] = (line[i] + left) & 255
            elif filter_type == 2:
                line[i] = (line[i] + up) & 255
            elif filter_type == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif filter_type == 4:
                p = left + up - up_left
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - up_left)
                pred = left if pa <= pb and pa <= pc else (up if pb <= pc else up_left)
                line[i] = (line[i] + pred) & 255
        rows.append([tuple(line[x * channels:x * channels + 3]) for x in range(width)])
        previous = line
    return width, height, rows


# ---- Running the viewer --------------------------------------------------------------------

def run_viewer(viewer, args, work, name, size=WINDOW):
    report = os.path.join(work, name + ".json")
    cmd = [viewer, "--size", size, "--report", report] + args
    print("$", " ".join(cmd), flush=True)
    done = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, timeout=240)
    print(done.stdout, end="")
    check(done.returncode == 0, f"{name}: puddle-view exited with {done.returncode}")
    with open(report) as f:
        return json.load(f)


def read_particle_pixels(path):
    with open(path) as f:
        next(f)
        return [tuple(float(v) for v in line.split(",")[:2]) for line in f if line.strip()]


def hex_rgb(colour):
    return tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))


def fluid_test(report, k_range=(0.7, 1.25), max_residual=30):
    """A test for "this pixel shows fluid", from the materials' colours in the report: the
    pixel is a material colour scaled by the threshold pass's depth shading (0.8 to 1.12, with
    some slack: k_range), not the container's grey or the dark background."""
    return shade_test([hex_rgb(c) for c in report["material_colors"]], k_range, max_residual)


def shade_test(colours, k_range, max_residual):
    """A test for "this pixel is one of these colours, scaled by k in k_range"."""
    def is_fluid(pixel):
        for m in colours:
            mm = sum(v * v for v in m)
            if mm == 0:
                continue
            k = sum(p * v for p, v in zip(pixel, m)) / mm
            residual = math.sqrt(sum((p - k * v) ** 2 for p, v in zip(pixel, m)))
            if k_range[0] <= k <= k_range[1] and residual < max_residual:
                return True
        return False
    return is_fluid


def world_to_pixel(report, x, y):
    vx, vy, vw, vh = report["viewport"]
    ppu = report["pixels_per_unit"]
    cx, cy = report["view_center"]
    return vx + 0.5 * vw + (x - cx) * ppu, vy + 0.5 * vh - (y - cy) * ppu


def check_picture(png, particles_csv, report, name):
    is_fluid = fluid_test(report)
    width, height, rows = read_png(png)
    check((width, height) == tuple(report["drawable"]),
          f"{name}: screenshot is the window's size {width}x{height}")
    colours = {rows[y][x] for y in range(0, height, 7) for x in range(0, width, 7)}
    check(len(colours) > 20, f"{name}: the picture is not blank ({len(colours)} distinct colours)")

    particles = read_particle_pixels(particles_csv)
    check(len(particles) == report["particles"], f"{name}: every particle listed")
    inside = [(x, y) for x, y in particles if 0 <= x < width and 0 <= y < height]
    hits = sum(1 for x, y in inside if is_fluid(rows[int(y)][int(x)]))
    share = hits / max(len(inside), 1)
    check(share >= 0.97, f"{name}: fluid drawn at {share:.1%} of the particles' pixels")

    # The converse: fluid-coloured pixels lie near particles (within one h).
    ppu = report["pixels_per_unit"]
    cell = max(ppu, 1.0)
    grid = {}
    for x, y in particles:
        grid.setdefault((int(x // cell), int(y // cell)), []).append((x, y))
    vx, vy, vw, vh = report["viewport"]
    rng = random.Random(4)
    fluid_samples = far = 0
    for _ in range(20000):
        x, y = rng.randrange(vx, vx + vw), rng.randrange(vy, vy + vh)
        if not is_fluid(rows[y][x]):
            continue
        fluid_samples += 1
        gx, gy = int(x // cell), int(y // cell)
        near = any((px - x) ** 2 + (py - y) ** 2 <= cell * cell
                   for dx in (-1, 0, 1) for dy in (-1, 0, 1)
                   for px, py in grid.get((gx + dx, gy + dy), ()))
        if not near:
            far += 1
    check(fluid_samples > 200, f"{name}: {fluid_samples} fluid pixels sampled")
    check(far <= 0.01 * fluid_samples,
          f"{name}: fluid pixels lie within h of a particle ({far} of {fluid_samples} do not)")
    return rows


# ---- 3D ------------------------------------------------------------------------------------

def fluid_test_3d(report):
    """3D spheres are shaded (ambient 0.38 to full light, plus a white highlight of at most 0.22):
    a fluid pixel is a material colour scaled by 0.3 to 1.3, give or take the highlight."""
    return fluid_test(report, k_range=(0.3, 1.3), max_residual=60)


def check_picture_3d(png, particles_csv, report, name):
    check(report["dimensions"] == 3, f"{name}: the world is 3D")
    is_fluid = fluid_test_3d(report)
    width, height, rows = read_png(png)
    check((width, height) == tuple(report["drawable"]),
          f"{name}: screenshot is the window's size {width}x{height}")
    colours = {rows[y][x] for y in range(0, height, 7) for x in range(0, width, 7)}
    check(len(colours) > 20, f"{name}: the picture is not blank ({len(colours)} distinct colours)")
    vx, vy, vw, vh = report["viewport"]
    samples = [(x, y) for y in range(vy, vy + vh, 5) for x in range(vx, vx + vw, 5)]
    share = sum(1 for x, y in samples if is_fluid(rows[y][x])) / len(samples)
    check(share > 0.03, f"{name}: fluid-coloured pixels cover {share:.1%} of the view")
    # every particle's pixel shows fluid: the particle itself or one in front of it
    particles = read_particle_pixels(particles_csv)
    check(len(particles) == report["particles"], f"{name}: every particle listed")
    inside = [(x, y) for x, y in particles if vx <= x < vx + vw and vy <= y < vy + vh]
    check(len(inside) > 0.9 * len(particles), f"{name}: the camera sees the fluid "
          f"({len(inside)} of {len(particles)} particles in view)")
    hits = sum(1 for x, y in inside if is_fluid(rows[int(y)][int(x)]))
    share = hits / max(len(inside), 1)
    # the liquid is clear where it is thin (the floor shows through the drop's crater) and white
    # under foam and highlights: measured 99.0% (dam-break-3d-clavet) and 93.5% (drop-3d-clavet) at 60 frames
    check(share >= 0.9, f"{name}: fluid drawn at {share:.1%} of the particles' pixels")
    return rows


def case_picture3d(viewer, work):
    for scene in ("dam-break-3d-clavet", "drop-3d-clavet"):
        png = os.path.join(work, scene + ".png")
        csv = os.path.join(work, scene + ".csv")
        report = run_viewer(viewer, [scene, "--frames", "60", "--no-panel", "--screenshot", png,
                                     "--particles-out", csv, "--script", grown_script(work, scene, 60)],
                            work, scene, REPORT_ONLY)
        check_grown(report, scene)
        check(report["steps"] == 60 and report["non_finite"] == 0,
              f"{scene}: 60 steps, {report['particles']} particles, all finite")
        check(15000 <= report["particles"] <= 20000, f"{scene}: 15-20k particles")
        check_picture_3d(png, csv, report, scene)
    # the dots mode draws spheres too, and the panel may share the window
    png = os.path.join(work, "dots3d.png")
    csv = os.path.join(work, "dots3d.csv")
    report = run_viewer(viewer, ["drop-3d-clavet", "--frames", "5", "--render", "dots", "--color", "speed",
                                 "--screenshot", png, "--particles-out", csv], work, "dots3d")
    _, _, rows = read_png(png)
    vx, vy, vw, vh = report["viewport"]
    colours = {rows[y][x] for y in range(vy, vy + vh, 6) for x in range(vx, vx + vw, 6)}
    check(len(colours) > 50, f"dots3d: speed-coloured spheres drawn ({len(colours)} colours)")


def differing_share(a, b, viewport):
    vx, vy, vw, vh = viewport
    samples = [(x, y) for y in range(vy, vy + vh, 4) for x in range(vx, vx + vw, 4)]
    return sum(1 for x, y in samples if a[y][x] != b[y][x]) / len(samples)


def case_orbit3d(viewer, work):
    # Paused, so only the camera can change the picture.
    base = ["dam-break-3d-clavet", "--paused", "--frames", "12", "--no-panel"]
    still_png = os.path.join(work, "still.png")
    still = run_viewer(viewer, base + ["--screenshot", still_png], work, "still")
    script = write_script(work, "orbit", ["2 orbit 60 10", "6 wheel 2"])
    orbit_png = os.path.join(work, "orbit.png")
    orbit = run_viewer(viewer, base + ["--script", script, "--screenshot", orbit_png], work, "orbit")
    c0, c1 = still["camera"], orbit["camera"]
    check(abs((c1["yaw"] - c0["yaw"]) - 60) < 0.5 and abs((c1["pitch"] - c0["pitch"]) - 10) < 0.5,
          f"orbit3d: the orbit turned the camera by yaw 60, pitch 10 ({c0['yaw']:.1f}, "
          f"{c0['pitch']:.1f} -> {c1['yaw']:.1f}, {c1['pitch']:.1f})")
    check(abs(c1["distance"] / c0["distance"] - 0.81) < 0.01,
          f"orbit3d: two wheel clicks zoomed in to 0.81 of the distance ({c1['distance']:.2f})")
    _, _, a = read_png(still_png)
    _, _, b = read_png(orbit_png)
    share = differing_share(a, b, still["viewport"])
    check(share > 0.1, f"orbit3d: the picture changed ({share:.1%} of the view's pixels)")
    check(still["steps"] == 0 and orbit["steps"] == 0, "orbit3d: paused, the fluid did not move")
    home = write_script(work, "home", ["2 orbit 60 10", "4 press middle 0 0", "5 move 0.3 0.2",
                                       "6 release middle", "8 key Home"])
    back = run_viewer(viewer, base + ["--script", home], work, "home")
    c2 = back["camera"]
    check(all(abs(c2[k] - c0[k]) < 1e-3 for k in ("yaw", "pitch", "distance")) and
          all(abs(p - q) < 1e-3 for p, q in zip(c2["target"], c0["target"])),
          "orbit3d: Home re-framed the scene after an orbit and a pan")


def ray_from_camera(report, ndc_x, ndc_y):
    """pdl_camera_eye and pdl_camera_ray (io/src/camera.c) from the report's camera."""
    c = report["camera"]
    yaw, pitch = math.radians(c["yaw"]), math.radians(c["pitch"])
    f = (-math.sin(yaw) * math.cos(pitch), -math.sin(pitch), -math.cos(yaw) * math.cos(pitch))
    r = (math.cos(yaw), 0.0, -math.sin(yaw))
    u = (r[1] * f[2] - r[2] * f[1], r[2] * f[0] - r[0] * f[2], r[0] * f[1] - r[1] * f[0])
    eye = tuple(t - c["distance"] * fk for t, fk in zip(c["target"], f))
    _, _, vw, vh = report["viewport"]
    t = math.tan(math.radians(c["fov"]) / 2)
    d = [f[k] + ndc_x * t * vw / vh * r[k] + ndc_y * t * u[k] for k in range(3)]
    n = math.sqrt(sum(v * v for v in d))
    return eye, tuple(v / n for v in d)


def distance_to_ray(point, eye, direction):
    q = [p - e for p, e in zip(point, eye)]
    along = sum(a * b for a, b in zip(q, direction))
    return math.sqrt(max(sum(v * v for v in q) - along * along, 0.0))


def camera_frame(report):
    """The eye and the unit frame (forward, right, up) of the report's camera (io/src/camera.c)."""
    c = report["camera"]
    yaw, pitch = math.radians(c["yaw"]), math.radians(c["pitch"])
    f = (-math.sin(yaw) * math.cos(pitch), -math.sin(pitch), -math.cos(yaw) * math.cos(pitch))
    r = (math.cos(yaw), 0.0, -math.sin(yaw))
    u = (r[1] * f[2] - r[2] * f[1], r[2] * f[0] - r[0] * f[2], r[0] * f[1] - r[1] * f[0])
    return tuple(t - c["distance"] * fk for t, fk in zip(c["target"], f)), f, r, u


def case_frame3d(viewer, work):
    # boats-3d's camera suits a 16:9 picture; beside the panel the view is narrower (740 x 700
    # here, 920 x 800 in a 1280 x 800 window), and the tank began off the left edge and ran under
    # the panel. On load every corner of the tank must be in the view; orbiting and zooming in
    # must leave the camera outside the tank (issue 41).
    scene = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "scenes", "boats-3d.json")
    with open(scene) as f:
        half = json.load(f)["container"]["half_extents"]
    corners = [(sx * half[0], sy * half[1], sz * half[2]) for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)]
    report = run_viewer(viewer, [scene, "--paused", "--frames", "3"], work, "boats3d")
    eye, f, r, u = camera_frame(report)
    _, _, vw, vh = report["viewport"]
    t = math.tan(math.radians(report["camera"]["fov"]) / 2)
    worst = 0
    for p in corners:
        q = [p[k] - eye[k] for k in range(3)]
        depth = sum(a * b for a, b in zip(q, f))
        x = sum(a * b for a, b in zip(q, r)) / (depth * t * vw / vh)
        y = sum(a * b for a, b in zip(q, u)) / (depth * t)
        worst = max(worst, abs(x), abs(y))
    check(vw < vh * 16 / 9 and worst <= 1.0, f"frame3d: boats-3d's tank fits the {vw}x{vh} view on load "
          f"(farthest corner at {worst:.3f} of the half view)")
    for name, steps in (("yaw", ["2 orbit 30 0"]), ("pitch", ["2 orbit 0 -30"]), ("under", ["2 orbit 30 -60"]),
                        ("zoom", ["2 orbit 30 0", "3 wheel 30"])):
        moved = run_viewer(viewer, [scene, "--paused", "--frames", "6", "--script",
                                    write_script(work, "boats-" + name, steps)], work, "boats-" + name)
        eye = camera_frame(moved)[0]
        inside = all(-h < e < h for e, h in zip(eye, half))
        check(not inside, f"frame3d: after {name}, the camera at {tuple(round(e, 2) for e in eye)} is outside the "
              f"tank (half extents {half})")


def case_interact3d(viewer, work):
    # (every check reads the reports: the small window)
    args = ["drop-3d-clavet", "--frames", "70", "--no-panel"]
    control = run_viewer(viewer, args, work, "control3d", REPORT_ONLY)
    # pull: hold the left button on a ray through the upper right of the view
    pull = write_script(work, "pull3d", ["5 press left 0.3 -0.3", "65 release left"])
    pulled = run_viewer(viewer, args + ["--script", pull], work, "pull3d", REPORT_ONLY)
    eye, direction = ray_from_camera(control, 0.3, -0.3)
    d0 = distance_to_ray(control["centre_of_mass_3d"], eye, direction)
    d1 = distance_to_ray(pulled["centre_of_mass_3d"], eye, direction)
    check(d1 < d0 - 0.3, f"interact3d: pulling along the mouse ray moved the centre of mass "
          f"towards it ({d1:.2f} < {d0:.2f} - 0.3 world units)")
    check(pulled["particles"] == control["particles"] and pulled["non_finite"] == 0,
          "interact3d: no particles lost, all finite")
    # pour with E held, then drop a box with C, then drag the box with the left button
    pour = write_script(work, "pour3d", ["2 move 0.1 0.3", "3 keydown e", "33 keyup e",
                                         "40 move 0 0", "41 key shift+c",
                                         "45 press left 0 0", "46 move 0.1 0", "47 move 0.2 0",
                                         "48 move 0.3 0", "60 release left"])
    poured = run_viewer(viewer, args + ["--script", pour], work, "pour3d", REPORT_ONLY)
    added = poured["particles"] - control["particles"]
    check(added > 50, f"interact3d: holding E poured {added} particles")
    check(poured["obstacles_added"] == 1 and poured["obstacles"] == 1,
          "interact3d: shift + C dropped one box obstacle")
    (bx, by, bz), = poured["obstacle_positions"]
    eye, direction = ray_from_camera(poured, 0.3, 0.0)
    off = distance_to_ray((bx, by, bz), eye, direction)
    check(off < 1.0, f"interact3d: the box was dragged onto the ray through (0.3, 0) "
          f"({off:.2f} world units off it, at {bx:.2f}, {by:.2f}, {bz:.2f})")
    check(poured["non_finite"] == 0, "interact3d: all particles finite")


def body_ray_offset(report, body, ndc):
    eye, direction = ray_from_camera(report, *ndc)
    return distance_to_ray(body["position"], eye, direction)


def case_bodies3d(viewer, work):
    args = ["drop-3d-clavet", "--frames", "40", "--no-panel"]
    # C drops a cube at the anchor of the ray through (0, 0.2); the left button grabs it at
    # once and drags it to (0.4, 0.2), still held at the end
    grab = write_script(work, "grab3d", ["2 move 0 0.2", "3 key c", "4 press left 0 0.2",
                                         "5 move 0.1 0.2", "6 move 0.2 0.2", "7 move 0.3 0.2",
                                         "8 move 0.4 0.2"])
    png = os.path.join(work, "grab3d.png")
    held = run_viewer(viewer, args + ["--script", grab, "--screenshot", png], work, "grab3d")
    check(held["bodies"] == 1 and held["bodies_added"] == 1 and held["obstacles"] == 0,
          "bodies3d: C added one body, no obstacle")
    body, = held["body_list"]
    check(body["shape"] == "box" and abs(body["half_extents"][0] - 1.5) < 1e-4,
          f"bodies3d: a cube of the panel's half size 1.5 ({body['shape']}, {body['half_extents']})")
    # held at the depth where it was grabbed (on its surface): its centre is within its half
    # diagonal (1.5 sqrt 3 = 2.6) of the new ray, and far from the ray it was dropped on
    near, far = body_ray_offset(held, body, (0.4, 0.2)), body_ray_offset(held, body, (0.0, 0.2))
    check(near < 2.6 and far > 2 * near + 3,
          f"bodies3d: the held cube followed the mouse ray to (0.4, 0.2) ({near:.2f} world units "
          f"off it, {far:.2f} off the ray it was dropped on)")
    check(body["position"][1] > 9, f"bodies3d: held up in the air above the pool "
          f"(y = {body['position'][1]:.2f})")
    # the held cube is drawn (lit from its colour, 0.45 to 1 of it): in the held tone
    _, _, rows = read_png(png)
    vx, vy, vw, vh = held["viewport"]
    is_held = shade_test([(217, 199, 153)], (0.4, 1.05), 25)
    shown = sum(1 for y in range(vy, vy + vh, 2) for x in range(vx, vx + vw, 2) if is_held(rows[y][x]))
    check(shown > 100, f"bodies3d: the held cube is drawn ({shown} sampled pixels)")

    # B switches to a sphere; C drops it above the pool; it falls in and, 4 s later, floats
    drop = ["2 key b", "3 move -0.3 -0.05", "4 key c"]
    png = os.path.join(work, "sphere3d.png")
    start = run_viewer(viewer, ["drop-3d-clavet", "--frames", "6", "--no-panel", "--script",
                                write_script(work, "sphere3d-start", drop)], work, "sphere3d-start", REPORT_ONLY)
    fell = run_viewer(viewer, ["drop-3d-clavet", "--frames", "240", "--no-panel", "--script",
                               grown_script(work, "sphere3d", 240, drop), "--screenshot", png], work, "sphere3d",
                      REPORT_ONLY)
    check_grown(fell, "sphere3d")
    body, = fell["body_list"]
    check(body["shape"] == "circle" and abs(body["radius"] - 1.5) < 1e-4,
          f"bodies3d: B made C drop a sphere of radius 1.5 ({body['shape']}, r = {body['radius']})")
    y0, y = start["body_list"][0]["position"][1], body["position"][1]
    # drop-3d-clavet's floor is y = 0 (resting there the sphere's centre would be at 1.5), its pool 4
    # deep
    check(1.5 + 1.0 < y < min(y0 - 1.0, 6.5),
          f"bodies3d: the sphere fell from y = {y0:.2f} and floats (y = {y:.2f})")
    _, _, rows = read_png(png)
    vx, vy, vw, vh = fell["viewport"]
    is_body = shade_test([hex_rgb(body["color"])], (0.4, 1.3), 40)
    shown = sum(1 for y in range(vy, vy + vh, 2) for x in range(vx, vx + vw, 2) if is_body(rows[y][x]))
    check(shown > 30, f"bodies3d: the sphere is drawn ({shown} sampled pixels of its colour)")
    check(fell["non_finite"] == 0, "bodies3d: all particles finite")


def write_script(work, name, lines):
    path = os.path.join(work, name + ".script")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return path


def grown_script(work, name, frames, lines=()):
    """write_script's script of `lines` that also resizes the window to WINDOW GROWN_FRAMES before
    the last of `frames`: run in the REPORT_ONLY window, the viewer draws the frames before small
    and the last ones, its screenshot's among them, at the full size (as look.test.mjs in web/test
    does): the same picture at a fraction of the CPU, since the world does not see the window."""
    width, height = WINDOW.split("x")
    return write_script(work, name, list(lines) + [f"{frames - GROWN_FRAMES} resize {width} {height}"])


def check_grown(report, name):
    """The run of a grown_script drew its last frames at the full size."""
    check(report["drawable"] == [int(n) for n in WINDOW.split("x")],
          f"{name}: the last frames drawn at {WINDOW} ({report['drawable']})")


# ---- Cases -------------------------------------------------------------------------------------

def case_picture(viewer, work, render_args, name):
    png = os.path.join(work, name + ".png")
    csv = os.path.join(work, name + ".csv")
    report = run_viewer(viewer, ["blobs", "--frames", "90", "--screenshot", png,
                                 "--particles-out", csv] + render_args, work, name)
    check(report["non_finite"] == 0, f"{name}: all particles finite")
    check_picture(png, csv, report, name)


def case_density(viewer, work):
    """The density colour map at rest is the ramp's middle in either solver: in an SPH world the
    density is a mass density (rho0 11.4 for the default water at h = 1), so the map must divide
    by that, not by Clavet's rest_density 4 (which saturated the whole pool red)."""
    middle, top = (134, 242, 134), (134, 26, 26)  # ramp(0.5), ramp(1) of particles_gl.h
    for scene in ("sph-dam-break", "dam-break"):
        png = os.path.join(work, scene + ".png")
        csv = os.path.join(work, scene + ".csv")
        report = run_viewer(viewer, [scene, "--render", "dots", "--color", "density", "--no-panel",
                                     "--frames", "60", "--screenshot", png, "--particles-out", csv],
                            work, scene)
        width, height, rows = read_png(png)
        particles = [(x, y) for x, y in read_particle_pixels(csv) if 0 <= x < width and 0 <= y < height]
        check(len(particles) > 500, f"{scene}: {len(particles)} particles on screen")

        def nearest(pixel):
            d_mid = sum((p - m) ** 2 for p, m in zip(pixel, middle))
            d_top = sum((p - t) ** 2 for p, t in zip(pixel, top))
            return "middle" if d_mid < d_top else "top"
        kinds = [nearest(rows[int(y)][int(x)]) for x, y in particles]
        green = sum(1 for x, y in particles if rows[int(y)][int(x)][1] > 200)
        red = kinds.count("top")
        print(f"  {scene}: {green} of {len(particles)} particles drawn near the ramp's middle "
              f"(green > 200), {red} nearer its top")
        check(green >= 0.5 * len(particles), f"{scene}: the bulk at rest is the map's middle")
        check(red <= 0.05 * len(particles), f"{scene}: at most 5% saturated ({red})")


def case_drag(viewer, work, scripts):
    # A small calm pool, so that what the pointer reaches is a fair share of the fluid; the same
    # run untouched is the control.
    args = ["pool", "--frames", "120", "--no-panel"]
    control = run_viewer(viewer, args, work, "drag-control")
    dragged = run_viewer(viewer, args + ["--script", os.path.join(scripts, "drag.script")],
                         work, "drag")
    target = (5.0, 9.0)  # where drag.script holds the pointer

    def distance(report):
        x, y = report["centre_of_mass"]
        return math.hypot(x - target[0], y - target[1])

    d_control, d_dragged = distance(control), distance(dragged)
    print(f"centre of mass to pointer: untouched {d_control:.2f}, dragged {d_dragged:.2f}")
    check(d_dragged < d_control - 0.8,
          "drag: the centre of mass moved toward the pointer "
          f"({d_dragged:.2f} < {d_control:.2f} - 0.8 world units)")
    check(dragged["particles"] == control["particles"], "drag: no particles lost or added")
    check(dragged["non_finite"] == 0, "drag: all particles finite")


def case_obstacle(viewer, work, scripts):
    png = os.path.join(work, "obstacle.png")
    report = run_viewer(viewer, ["dam-break-clavet", "--frames", "80", "--screenshot", png, "--script",
                                 os.path.join(scripts, "obstacle.script")], work, "obstacle")
    check(report["obstacles_added"] == 1 and report["obstacles"] == 1,
          "obstacle: shift + C added one box obstacle")
    (bx, by), = report["obstacle_positions"]
    check(abs(bx - 12.0) < 0.3 and abs(by - 30.0) < 0.3,
          f"obstacle: the box was dragged from (0, 30) to (12, 30), it is at ({bx:.2f}, {by:.2f})")
    _, _, rows = read_png(png)
    px, py = world_to_pixel(report, bx, by)
    r, g, b = rows[int(py)][int(px)]
    want = hex_rgb(report["obstacle_color"])  # the scene's output.obstacle_color
    check(all(abs(c - w) < 40 for c, w in zip((r, g, b), want)),
          f"obstacle: the box is drawn at its position in {want} (pixel {(r, g, b)})")
    px, py = world_to_pixel(report, 0.0, 30.0)
    check(rows[int(py)][int(px)] != (r, g, b), "obstacle: nothing left where the box was")

    paused = run_viewer(viewer, ["dam-break-clavet", "--frames", "40", "--script",
                                 os.path.join(scripts, "obstacle-paused.script")], work,
                        "obstacle-paused")
    (bx, by), = paused["obstacle_positions"]
    check(paused["steps"] == 2 and abs(bx - 12.0) < 0.3 and abs(by - 30.0) < 0.3,
          f"obstacle: paused after 2 steps, a box was still dropped and dragged to ({bx:.2f}, {by:.2f})")


def case_pour(viewer, work, scripts):
    before = run_viewer(viewer, ["dam-break-clavet", "--frames", "5"], work, "pour-before")
    after = run_viewer(viewer, ["dam-break-clavet", "--frames", "90", "--script",
                                os.path.join(scripts, "pour.script")], work, "pour")
    added = after["particles"] - before["particles"]
    check(added > 50, f"pour: holding E poured {added} particles")
    check(after["non_finite"] == 0, "pour: all particles finite")


def case_keys(viewer, work, scripts):
    shots = os.path.join(work, "shots")
    os.makedirs(shots, exist_ok=True)
    for f in os.listdir(shots):
        os.remove(os.path.join(shots, f))
    report = run_viewer(viewer, ["dam-break-clavet", "--frames", "60", "--screenshot-dir", shots, "--script",
                                 os.path.join(scripts, "keys.script"), "--screenshot",
                                 os.path.join(work, "keys-last.png")], work, "keys")
    # keys.script: space at 10 (pause), '.' at 30 (one step), space at 40 (resume), 3 at 50
    # (switch to the third scene of the list, which starts its own step count): 10 steps after
    # the switch.
    listed = subprocess.run([viewer, "--list"], capture_output=True, text=True, timeout=60)
    third = listed.stdout.splitlines()[2].split()[1]
    check(report["scene"] == third, f"keys: 3 switched to the third scene ({third})")
    check(report["steps"] == 10, f"keys: the new scene ran 10 steps ({report['steps']})")
    check(report["render_mode"] == "dots", "keys: M switched to dots")
    check(report["color_mode"] == "speed", "keys: V switched to speed colouring")
    check(report["contours"] is True, "keys: O switched the contours on")
    check(report["show_stats"] is True, "keys: F showed the stats overlay")
    check(report["show_panel"] is False, "keys: Tab hid the panel")
    # the panel is hidden; the stats box (F) is a strip above the view, which takes the rest
    vx, vy, vw, vh = report["viewport"]
    check(report["drawable"] == [900, 600] and (vx, vw) == (0, 900) and 0 < vy < 120 and vy + vh == 600,
          f"keys: the window was resized to 900x600 and the view followed, below the stats strip "
          f"({report['drawable']}, viewport {report['viewport']})")
    width, height, _ = read_png(os.path.join(work, "keys-last.png"))
    check((width, height) == (900, 600), "keys: the last frame was drawn at the new size")
    saved = [f for f in os.listdir(shots) if f.endswith(".png")]
    check(len(saved) == 1, f"keys: S saved a screenshot ({saved})")
    width, height, _ = read_png(os.path.join(shots, saved[0]))
    check(width > 0 and height > 0, "keys: the screenshot is a readable PNG")

    paused = run_viewer(viewer, ["dam-break-clavet", "--frames", "45", "--script",
                                 os.path.join(scripts, "pause.script")], work, "pause")
    check(paused["steps"] == 10 + 1 + 5, f"pause: space and . gave 16 steps ({paused['steps']})")


def case_scenekeys(viewer, work):
    # the digits reach scenes 1 to 10 (0 is the tenth); PageDown / ] and PageUp / [ go through
    # every scene of --list, wrapping round (issue 41: there are more than nine)
    names = [line.split()[1] for line in subprocess.run([viewer, "--list"], capture_output=True, text=True,
                                                         timeout=60).stdout.splitlines()]
    check(len(names) > 10, f"scenekeys: more than ten scenes to reach ({len(names)})")
    for start, keys, expected in (("dam-break-clavet", ["0"], names[9]), (names[-1], ["PageDown"], names[0]),
                                  (names[0], ["["], names[-1]), (names[9], ["]", "]"], names[11])):
        script = write_script(work, "scenekeys", [f"{2 + 2 * i} key {k}" for i, k in enumerate(keys)])
        report = run_viewer(viewer, [start, "--frames", "12", "--no-panel", "--script", script], work, "scenekeys",
                            REPORT_ONLY)
        check(report["scene"] == expected, f"scenekeys: {start} then {keys} shows {expected} ({report['scene']})")


def case_scenes(viewer, work):
    listed = subprocess.run([viewer, "--list"], capture_output=True, text=True, timeout=60)
    names = [line.split()[1] for line in listed.stdout.splitlines() if line.strip()]
    check(len(names) >= 2, f"scenes: {len(names)} scenes listed")
    for name in names:
        report = run_viewer(viewer, [name, "--frames", "20"], work, "scene-" + name, REPORT_ONLY)
        check(report["scene"] == name and report["steps"] == 20,
              f"scenes: {name} ran 20 steps")
        check(report["particles"] > 0 and report["non_finite"] == 0,
              f"scenes: {name} has {report['particles']} particles, all finite")


def body_pixel_is(rows, report, x, y, colour, tolerance=40):
    px, py = world_to_pixel(report, x, y)
    pixel = rows[int(py)][int(px)]
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, colour)), pixel


def case_bodies(viewer, work, scripts):
    # C over the calm pool: a box body falls into the water and floats
    png = os.path.join(work, "float.png")
    report = run_viewer(viewer, ["pool", "--frames", "190", "--screenshot", png, "--script",
                                 os.path.join(scripts, "bodies-float.script")], work, "float")
    check(report["bodies"] == 1 and report["bodies_added"] == 1 and report["obstacles"] == 0,
          "bodies: C added one body and no obstacle")
    body, = report["body_list"]
    x, y = body["position"][:2]
    check(body["shape"] == "box" and body["half_extents"][:2] == [1.5, 1.5] and
          abs(body["density"] - 0.5) < 1e-6,
          "bodies: the panel's next body (box, half size 1.5 h, density 0.5): "
          f"{body['shape']}, {body['half_extents'][:2]}, {body['density']}")
    # dropped at y = 10; resting on the floor its centre would be at 1.5 (its half size); the
    # water's surface is at 5.9 and the body bobs on it
    check(1.5 + 1.0 < y < 10 - 2.0 and abs(x) < 3,
          f"bodies: after 3 s the body fell and floats (at {x:.2f}, {y:.2f}; the floor "
          "would hold it at y = 1.5)")
    check(report["non_finite"] == 0, "bodies: all particles finite")
    _, _, rows = read_png(png)
    colour = hex_rgb(body["color"])
    drawn, pixel = body_pixel_is(rows, report, x, y, colour)
    check(drawn, f"bodies: the body is drawn in its colour {colour} at its centre ({pixel})")
    gone, pixel = body_pixel_is(rows, report, 0.0, 10.0, colour)
    check(not gone, f"bodies: nothing of it left where it was dropped ({pixel})")

    # dropped into the water, a body displaces the particles where it lands (they would be
    # squeezed out through its faces in a burst): the pool has fewer, and none is left inside it
    plain = run_viewer(viewer, ["pool", "--frames", "8"], work, "undropped")
    sunk = run_viewer(viewer, ["pool", "--frames", "8", "--script", write_script(work, "sunk", ["2 move 0 3", "5 key c"])],
                      work, "sunk")
    check(sunk["bodies"] == 1 and sunk["particles"] < plain["particles"] - 20,
          f"bodies: a box dropped into the water took its particles' place ({plain['particles']} -> "
          f"{sunk['particles']})")

    # grab and throw: dragged right and let go, the body flies on to the right
    drop = write_script(work, "unthrown", ["2 move -5 10", "5 key c"])
    still = run_viewer(viewer, ["pool", "--frames", "20", "--script", drop], work, "unthrown")
    thrown = run_viewer(viewer, ["pool", "--frames", "20", "--script",
                                 os.path.join(scripts, "bodies-throw.script")], work, "thrown")
    (x0, y0, _), = [b["position"] for b in still["body_list"]]
    (x1, y1, _), = [b["position"] for b in thrown["body_list"]]
    (vx1, vy1, _), = [b["velocity"] for b in thrown["body_list"]]
    check(abs(x0 + 5) < 0.1, f"bodies: untouched, the body falls straight down (x = {x0:.2f})")
    # the hand went 8 units right in 8 frames; the body, steered at up to 40 h/s, trails it and
    # keeps going after the release at frame 15
    check(x1 > -5 + 7 and vx1 > 20 and abs(y1 - 10) < 1,
          f"bodies: grabbed at (-5, 10) and dragged right, it was thrown right (at {x1:.2f}, "
          f"{y1:.2f}, moving at {vx1:.1f}, {vy1:.1f} units/s)")

    # B switches to circles; Delete removes the body under the pointer; a body that would
    # reach out of the tank is refused with the core's message
    keys = write_script(work, "body-keys", [
        "2 move -5 10", "3 key c", "4 key b", "5 move 5 10", "6 key c",
        "8 move -5 10", "9 key Delete", "12 move 0 16", "13 key c"])
    report = run_viewer(viewer, ["pool", "--frames", "20", "--script", keys], work, "body-keys")
    check(report["bodies_added"] == 2 and report["bodies"] == 1,
          f"bodies: two dropped, Delete removed one ({report['bodies']} left)")
    body, = report["body_list"]
    check(body["shape"] == "circle" and abs(body["position"][0] - 5) < 0.1,
          f"bodies: the circle dropped after B is the one left ({body['shape']} at "
          f"{body['position'][0]:.2f})")
    check("container" in report["message"] and report["message"].startswith("body:"),
          f"bodies: C above the tank says why nothing was added ({report['message']!r})")


def case_cli(viewer, work):
    def run(args):
        return subprocess.run([viewer] + args, stdin=subprocess.DEVNULL, capture_output=True,
                              text=True, timeout=60)
    listed = run(["--list"])
    check(listed.returncode == 0 and "blobs" in listed.stdout and "stratify" in listed.stdout
          and "pool" in listed.stdout, "cli: --list names the scenes")
    check(run(["--help"]).returncode == 0, "cli: --help exits 0")
    bad = run(["no-such-scene", "--frames", "1"])
    check(bad.returncode == 2 and "no-such-scene" in bad.stderr, "cli: an unknown scene exits 2")
    check(run(["--frames", "zero"]).returncode == 2, "cli: a bad number exits 2")
    broken = write_script(work, "broken", ["0 move 1", "5 jump"])
    bad_script = run(["dam-break-clavet", "--script", broken])
    check(bad_script.returncode == 2 and "broken.script:1" in bad_script.stderr,
          "cli: a broken script is refused with its line")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--viewer", required=True)
    parser.add_argument("--scripts", required=True, help="directory of the .script files")
    parser.add_argument("--work", help="directory for outputs (default: a temporary one)")
    parser.add_argument("case", choices=["picture", "dots", "drag", "obstacle", "pour", "keys",
                                         "scenes", "cli", "bodies", "picture3d", "orbit3d",
                                         "interact3d", "bodies3d", "density", "frame3d", "scenekeys"])
    a = parser.parse_args()
    work = a.work or tempfile.mkdtemp(prefix="puddle-view-")
    os.makedirs(work, exist_ok=True)
    try:
        if a.case == "picture":
            case_picture(a.viewer, work, [], "picture")
        elif a.case == "dots":
            case_picture(a.viewer, work, ["--render", "dots", "--no-panel"], "dots")
        elif a.case == "drag":
            case_drag(a.viewer, work, a.scripts)
        elif a.case == "obstacle":
            case_obstacle(a.viewer, work, a.scripts)
        elif a.case == "pour":
            case_pour(a.viewer, work, a.scripts)
        elif a.case == "keys":
            case_keys(a.viewer, work, a.scripts)
        elif a.case == "scenes":
            case_scenes(a.viewer, work)
        elif a.case == "cli":
            case_cli(a.viewer, work)
        elif a.case == "picture3d":
            case_picture3d(a.viewer, work)
        elif a.case == "orbit3d":
            case_orbit3d(a.viewer, work)
        elif a.case == "interact3d":
            case_interact3d(a.viewer, work)
        elif a.case == "bodies":
            case_bodies(a.viewer, work, a.scripts)
        elif a.case == "bodies3d":
            case_bodies3d(a.viewer, work)
        elif a.case == "density":
            case_density(a.viewer, work)
        elif a.case == "frame3d":
            case_frame3d(a.viewer, work)
        elif a.case == "scenekeys":
            case_scenekeys(a.viewer, work)
    except Failure as failure:
        print("FAIL:", failure)
        return 1
    except subprocess.TimeoutExpired as timeout:
        print("FAIL: timed out:", timeout)
        return 1
    print("PASS", a.case)
    return 0


if __name__ == "__main__":
    sys.exit(main())
