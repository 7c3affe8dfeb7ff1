"""Photoreal frames of a 3D puddle run: Cycles renders of its surface meshes (docs/blender.md).

    blender -b -P scripts/render-blender.py -- RUN_DIR --scene SCENE.json [options]

RUN_DIR is the --out folder of `puddle run SCENE.json --surface`; every RUN_DIR/surface/frame_*.ply
is imported in turn, given a water material, rendered with Cycles on the CPU into
OUT/frame_NNNNNN.png (the same frame number) and deleted again, so memory stays flat. The scene
file gives the tank (its container), the floor under it and the camera (the orbit camera of
io/src/camera.c, so the view is that of puddle's own pictures). Options:

    --out DIR          folder of the PNGs (default RUN_DIR/blender)
    --samples N        Cycles samples per pixel (default 64)
    --size WxH         picture size (default 960x540; even numbers for --video)
    --frames A:B       only frame numbers A to B, both included (A: or :B leave a side open)
    --video FILE.mp4   also an H.264 video of the frames through ffmpeg
    --fps F            the video's frame rate (default: real time, 1 / (dt x frames between files))
    --scale F          lengths of the run over those of the scene file (a run with --particles N:
                       the cube root of its particle count over the scene's, see docs/blender.md)
    --empty-tank       also render the tank without water, OUT/empty_tank.png
    --threads N        Cycles threads (default 0: one per core)

Where the run wrote diffuse particles beside a surface (RUN_DIR/surface/diffuse_NNNNNN.ply: a
scene with "diffuse" on, docs/cli.md), its spray and foam are rendered with it as white spheres,
radius 0.15 h (bubbles are left out, as the real-time look hides them under the water).

Besides the PNGs it writes OUT/render.json: per frame the render time, the triangle count, the
diffuse particles drawn, the mean and standard deviation of the picture's luminance and (with --empty-tank) its mean
absolute difference from the empty tank. Coordinates: puddle's y is up, Blender's z; a point
(x, y, z) of puddle is (x, -z, y) in Blender.
"""
import array
import json
import math
import os
import re
import shutil
import subprocess
import sys
import time

import bpy
import mathutils

PROG = "render-blender"


class UsageError(Exception):
	pass


def fail(message, code=2):
	print(f"{PROG}: {message}", file=sys.stderr, flush=True)
	sys.exit(code)


# --- options -------------------------------------------------------------------------------------

def parse_args(argv):
	opts = {"run": None, "scene": None, "out": None, "samples": 64, "size": (960, 540), "frames": (None, None),
	        "video": None, "fps": None, "scale": 1.0, "empty_tank": False, "threads": 0}
	i = 0

	def value(name):
		nonlocal i
		if i + 1 >= len(argv):
			raise UsageError(f"{name} needs a value")
		i += 1
		return argv[i]

	def number(name, text, kind, lo):
		try:
			v = kind(text)
		except ValueError:
			raise UsageError(f"{name}: '{text}' is not a number")
		if not (v >= lo) or (kind is float and not math.isfinite(v)):
			raise UsageError(f"{name}: {text} is out of range (at least {lo})")
		return v

	while i < len(argv):
		a = argv[i]
		if a == "--scene":
			opts["scene"] = value(a)
		elif a == "--out":
			opts["out"] = value(a)
		elif a == "--samples":
			opts["samples"] = number(a, value(a), int, 1)
		elif a == "--threads":
			opts["threads"] = number(a, value(a), int, 0)
		elif a == "--size":
			t = value(a)
			m = re.fullmatch(r"(\d+)x(\d+)", t)
			if not m or not (16 <= int(m.group(1)) <= 8192 and 16 <= int(m.group(2)) <= 8192):
				raise UsageError(f"--size: '{t}' is not WxH with W and H in [16, 8192]")
			opts["size"] = (int(m.group(1)), int(m.group(2)))
		elif a == "--frames":
			t = value(a)
			m = re.fullmatch(r"(\d*):(\d*)", t)
			if not m:
				raise UsageError(f"--frames: '{t}' is not A:B (frame numbers, either may be left out)")
			lo = int(m.group(1)) if m.group(1) else None
			hi = int(m.group(2)) if m.group(2) else None
			if lo is not None and hi is not None and hi < lo:
				raise UsageError(f"--frames: {t} is empty (B < A)")
			opts["frames"] = (lo, hi)
		elif a == "--video":
			opts["video"] = value(a)
			if not opts["video"].endswith(".mp4"):
				raise UsageError(f"--video: '{opts['video']}' must end in .mp4")
		elif a == "--fps":
			opts["fps"] = number(a, value(a), float, 1e-3)
		elif a == "--scale":
			opts["scale"] = number(a, value(a), float, 1e-6)
		elif a == "--empty-tank":
			opts["empty_tank"] = True
		elif a in ("-h", "--help"):
			print(__doc__)
			sys.exit(0)
		elif a.startswith("-"):
			raise UsageError(f"unknown option '{a}'")
		elif opts["run"] is None:
			opts["run"] = a
		else:
			raise UsageError(f"one run folder only ('{opts['run']}' and '{a}')")
		i += 1
	if opts["run"] is None:
		raise UsageError("no run folder (blender -b -P scripts/render-blender.py -- RUN_DIR --scene SCENE.json)")
	if opts["scene"] is None:
		raise UsageError("--scene SCENE.json is required (the tank and the camera come from it)")
	if opts["video"] and (opts["size"][0] % 2 or opts["size"][1] % 2):
		raise UsageError("--video needs an even --size (H.264 yuv420p)")
	return opts


# --- the scene file ------------------------------------------------------------------------------

def vec3(v, what):
	if not (isinstance(v, list) and len(v) == 3 and all(isinstance(x, (int, float)) for x in v)):
		raise UsageError(f"scene: {what} must be [x, y, z]")
	return [float(x) for x in v]


def read_scene(path, scale):
	"""The container (shape, lo, hi), the camera (as io/src/camera.c resolves it) and dt."""
	try:
		with open(path) as f:
			s = json.load(f)
	except OSError as e:
		raise UsageError(f"--scene: cannot read {path}: {e.strerror}")
	except json.JSONDecodeError as e:
		raise UsageError(f"--scene: {path} is not JSON: {e}")
	world = s.get("world", {})
	if world.get("dimensions", 2) != 3:
		raise UsageError(f"--scene: {path} is not a 3D scene (world.dimensions 3)")
	c = s.get("container")
	tank = None
	if c:
		pos = vec3(c.get("position", [0, 0, 0]), "container.position")
		if c.get("shape", "box") == "box":
			he = vec3(c.get("half_extents"), "container.half_extents")
			tank = ("box", [p - h for p, h in zip(pos, he)], [p + h for p, h in zip(pos, he)])
		else:
			r = float(c.get("radius", 1))
			tank = ("sphere", [p - r for p in pos], [p + r for p in pos])
	if "bounds" in world:
		lo, hi = vec3(world["bounds"]["min"], "world.bounds.min"), vec3(world["bounds"]["max"], "world.bounds.max")
	elif tank:  # docs/scenes.md: the container's bounding box grown by 2 % on each side
		lo = [a - 0.02 * (b - a) for a, b in zip(tank[1], tank[2])]
		hi = [b + 0.02 * (b - a) for a, b in zip(tank[1], tank[2])]
	else:
		raise UsageError(f"--scene: {path} has neither a container nor world.bounds")
	cam = dict(s.get("camera", {}))
	# pdl_camera_framing: the bounding sphere of the bounds fits the vertical field of view
	fov = float(cam.get("fov", 45))
	target = vec3(cam["target"], "camera.target") if "target" in cam else [0.5 * (a + b) for a, b in zip(lo, hi)]
	if "distance" in cam:
		distance = float(cam["distance"])
	else:
		radius = 0.5 * math.sqrt(sum((b - a) ** 2 for a, b in zip(lo, hi)))
		distance = radius / math.sin(0.5 * math.radians(45))  # the framing uses the default fov
	camera = {"yaw": float(cam.get("yaw", 30)), "pitch": float(cam.get("pitch", 25)), "fov": fov,
	          "target": [scale * t for t in target], "distance": scale * distance}
	if tank:
		tank = (tank[0], [scale * x for x in tank[1]], [scale * x for x in tank[2]])
	return {"tank": tank, "camera": camera, "dt": float(world.get("dt", 1 / 60)), "name": s.get("name", "scene")}


def bl(p):
	"""puddle (x, y up, z) to Blender (x, y, z up)."""
	return mathutils.Vector((p[0], -p[2], p[1]))


# --- materials -----------------------------------------------------------------------------------

def node_material(name):
	m = bpy.data.materials.new(name)
	m.use_nodes = True
	nt = m.node_tree
	nt.nodes.clear()
	out = nt.nodes.new("ShaderNodeOutputMaterial")
	return m, nt, out


def principled(nt, values):
	b = nt.nodes.new("ShaderNodeBsdfPrincipled")
	for k, v in values.items():
		b.inputs[k].default_value = v
	return b


def water_material():
	m, nt, out = node_material("puddle water")
	b = principled(nt, {"Base Color": (1, 1, 1, 1), "Transmission": 1.0, "IOR": 1.33, "Roughness": 0.02,
	                    "Specular": 0.5})
	# shadow rays pass straight through (a transparent surface), so the sun still lights the floor
	# under the water: the usual stand-in for refractive caustics, which a path tracer at a few
	# samples cannot find
	path = nt.nodes.new("ShaderNodeLightPath")
	clear = nt.nodes.new("ShaderNodeBsdfTransparent")
	mix = nt.nodes.new("ShaderNodeMixShader")
	nt.links.new(path.outputs["Is Shadow Ray"], mix.inputs["Fac"])
	nt.links.new(b.outputs["BSDF"], mix.inputs[1])
	nt.links.new(clear.outputs["BSDF"], mix.inputs[2])
	nt.links.new(mix.outputs["Shader"], out.inputs["Surface"])
	# a slight blue: red is absorbed most, over the tank's depth of about 20 units
	v = nt.nodes.new("ShaderNodeVolumeAbsorption")
	v.inputs["Color"].default_value = (0.45, 0.75, 0.95, 1)
	v.inputs["Density"].default_value = 0.12
	nt.links.new(v.outputs["Volume"], out.inputs["Volume"])
	return m


def white_water_material():
	"""Spray, foam and bubbles: white and rough, as foam scatters light in every direction."""
	m, nt, out = node_material("puddle white water")
	b = principled(nt, {"Base Color": (0.95, 0.97, 1.0, 1), "Roughness": 0.6, "Specular": 0.3})
	nt.links.new(b.outputs["BSDF"], out.inputs["Surface"])
	return m


def metal_material():
	m, nt, out = node_material("tank edges")
	b = principled(nt, {"Base Color": (0.6, 0.6, 0.62, 1), "Metallic": 1.0, "Roughness": 0.35})
	nt.links.new(b.outputs["BSDF"], out.inputs["Surface"])
	return m


def floor_material(cell):
	m, nt, out = node_material("floor")
	coord = nt.nodes.new("ShaderNodeTexCoord")
	mapping = nt.nodes.new("ShaderNodeMapping")
	mapping.inputs["Scale"].default_value = (1 / cell, 1 / cell, 1 / cell)
	checker = nt.nodes.new("ShaderNodeTexChecker")
	checker.inputs["Scale"].default_value = 1.0
	checker.inputs["Color1"].default_value = (0.62, 0.6, 0.56, 1)
	checker.inputs["Color2"].default_value = (0.16, 0.16, 0.17, 1)
	noise = nt.nodes.new("ShaderNodeTexNoise")  # a little concrete-like variation in the roughness
	noise.inputs["Scale"].default_value = 3.0
	rough = nt.nodes.new("ShaderNodeMapRange")
	rough.inputs["To Min"].default_value = 0.45
	rough.inputs["To Max"].default_value = 0.8
	b = nt.nodes.new("ShaderNodeBsdfPrincipled")
	nt.links.new(coord.outputs["Object"], mapping.inputs["Vector"])
	nt.links.new(mapping.outputs["Vector"], checker.inputs["Vector"])
	nt.links.new(checker.outputs["Color"], b.inputs["Base Color"])
	nt.links.new(mapping.outputs["Vector"], noise.inputs["Vector"])
	nt.links.new(noise.outputs["Fac"], rough.inputs["Value"])
	nt.links.new(rough.outputs["Result"], b.inputs["Roughness"])
	nt.links.new(b.outputs["BSDF"], out.inputs["Surface"])
	return m


# --- the stage -----------------------------------------------------------------------------------

def link(obj):
	bpy.context.scene.collection.objects.link(obj)
	return obj


def add_cylinder(a, b, radius, material, name):
	a, b = bl(a), bl(b)
	d = b - a
	bpy.ops.mesh.primitive_cylinder_add(vertices=16, radius=radius, depth=d.length, location=(a + b) / 2)
	o = bpy.context.active_object
	o.name = name
	o.rotation_mode = "QUATERNION"
	o.rotation_quaternion = d.to_track_quat("Z", "Y")
	o.data.materials.append(material)
	for p in o.data.polygons:
		p.use_smooth = True
	return o


def build_stage(info):
	tank = info["tank"]
	lo, hi = (tank[1], tank[2]) if tank else ([-1, -1, -1], [1, 1, 1])
	size = max(b - a for a, b in zip(lo, hi))
	if tank and tank[0] == "box":
		metal = metal_material()
		r = 0.006 * size
		xs, ys, zs = (lo[0], hi[0]), (lo[1], hi[1]), (lo[2], hi[2])
		n = 0
		for y in ys:
			for z in zs:
				add_cylinder((xs[0] - r, y, z), (xs[1] + r, y, z), r, metal, f"edge{n}"); n += 1
		for x in xs:
			for z in zs:
				add_cylinder((x, ys[0] - r, z), (x, ys[1] + r, z), r, metal, f"edge{n}"); n += 1
		for x in xs:
			for y in ys:
				add_cylinder((x, y, zs[0] - r), (x, y, zs[1] + r), r, metal, f"edge{n}"); n += 1
	elif tank:
		print(f"{PROG}: a sphere container is drawn as the floor only", flush=True)
	# the floor: a wide plane just under the tank's bottom, 2 x 2 tank cells per checker square
	floor_y = lo[1] - 0.002 * size
	centre = [0.5 * (lo[0] + hi[0]), floor_y, 0.5 * (lo[2] + hi[2])]
	bpy.ops.mesh.primitive_plane_add(size=12 * size, location=bl(centre))
	floor = bpy.context.active_object
	floor.name = "floor"
	floor.data.materials.append(floor_material(size / 9))
	# lights: a sun from behind the camera's left, and a sky
	yaw = math.radians(info["camera"]["yaw"])
	sun_data = bpy.data.lights.new("sun", "SUN")
	sun_data.energy = 3.0
	sun_data.angle = math.radians(2.0)
	sun = link(bpy.data.objects.new("sun", sun_data))
	to_sun = bl((math.sin(yaw - 0.9) * 0.6, 1.0, math.cos(yaw - 0.9) * 0.6)).normalized()
	sun.rotation_mode = "QUATERNION"
	sun.rotation_quaternion = (-to_sun).to_track_quat("-Z", "Y")
	world = bpy.data.worlds.new("sky")
	bpy.context.scene.world = world
	world.use_nodes = True
	nt = world.node_tree
	nt.nodes.clear()
	sky = nt.nodes.new("ShaderNodeTexSky")
	sky.sky_type = "NISHITA"
	sky.sun_elevation = math.asin(to_sun.z)
	sky.sun_rotation = math.atan2(to_sun.x, to_sun.y)
	sky.sun_disc = False
	bg = nt.nodes.new("ShaderNodeBackground")
	bg.inputs["Strength"].default_value = 0.25
	wout = nt.nodes.new("ShaderNodeOutputWorld")
	nt.links.new(sky.outputs["Color"], bg.inputs["Color"])
	nt.links.new(bg.outputs["Background"], wout.inputs["Surface"])
	# the camera: io/src/camera.c, eye = target + distance (sin yaw cos pitch, sin pitch, cos yaw cos pitch)
	c = info["camera"]
	y, p = math.radians(c["yaw"]), math.radians(c["pitch"])
	t = c["target"]
	eye = [t[0] + c["distance"] * math.sin(y) * math.cos(p), t[1] + c["distance"] * math.sin(p),
	       t[2] + c["distance"] * math.cos(y) * math.cos(p)]
	cam_data = bpy.data.cameras.new("camera")
	cam_data.sensor_fit = "VERTICAL"
	cam_data.angle_y = math.radians(c["fov"])
	cam_data.clip_start = c["distance"] / 100
	cam_data.clip_end = c["distance"] * 100
	cam = link(bpy.data.objects.new("camera", cam_data))
	cam.location = bl(eye)
	cam.rotation_mode = "QUATERNION"
	cam.rotation_quaternion = (bl(t) - bl(eye)).to_track_quat("-Z", "Y")
	bpy.context.scene.camera = cam


def setup_render(opts):
	sc = bpy.context.scene
	sc.render.engine = "CYCLES"
	sc.cycles.device = "CPU"
	sc.cycles.samples = opts["samples"]
	sc.cycles.use_adaptive_sampling = True
	sc.cycles.max_bounces = 16
	sc.cycles.transmission_bounces = 16
	sc.cycles.glossy_bounces = 8
	sc.cycles.diffuse_bounces = 3
	sc.cycles.volume_bounces = 0
	sc.cycles.transparent_max_bounces = 8
	sc.cycles.caustics_reflective = False
	sc.cycles.caustics_refractive = False
	sc.cycles.blur_glossy = 1.0
	sc.cycles.sample_clamp_indirect = 3.0
	denoiser = None
	try:
		import _cycles
		if getattr(_cycles, "with_openimagedenoise", False):
			denoiser = "OPENIMAGEDENOISE"
	except ImportError:
		pass
	sc.cycles.use_denoising = denoiser is not None
	if denoiser:
		sc.cycles.denoiser = denoiser
	if opts["threads"]:
		sc.render.threads_mode = "FIXED"
		sc.render.threads = opts["threads"]
	sc.render.resolution_x, sc.render.resolution_y = opts["size"]
	sc.render.resolution_percentage = 100
	sc.render.film_transparent = False
	sc.render.image_settings.file_format = "PNG"
	sc.render.image_settings.color_mode = "RGB"
	sc.render.image_settings.color_depth = "8"
	sc.render.image_settings.compression = 90
	sc.view_settings.view_transform = "Filmic"
	sc.view_settings.look = "Medium High Contrast"
	return denoiser


# --- frames --------------------------------------------------------------------------------------

def import_ply(path, material):
	before = set(bpy.data.objects)
	bpy.ops.import_mesh.ply(filepath=path)
	new = [o for o in bpy.data.objects if o not in before]
	if len(new) != 1 or new[0].type != "MESH":
		raise RuntimeError(f"{path}: the PLY importer made no mesh")
	o = new[0]
	o.name = "water"
	# the PLY is in puddle's coordinates (y up): turn it to Blender's (z up), (x, y, z) -> (x, -z, y)
	o.rotation_euler = (math.radians(90), 0, 0)
	mesh = o.data
	mesh.materials.clear()
	mesh.materials.append(material)
	smooth = array.array("b", [1]) * len(mesh.polygons)
	mesh.polygons.foreach_set("use_smooth", smooth)
	mesh.update()
	return o


def read_diffuse_ply(path):
	"""The spray and foam of puddle's diffuse PLY (ASCII: x y z vx vy vz kind life, docs/cli.md):
	their positions. Bubbles (kind 2) are left out, as the real-time look hides them under the
	water, where here they would show through it."""
	with open(path) as f:
		names = []
		for line in f:
			if line.startswith("property "):
				names.append(line.split()[-1])
			if line.strip() == "end_header":
				break
		x, y, z, kind = (names.index(n) for n in ("x", "y", "z", "kind"))
		points = []
		for line in f:
			v = line.split()
			if len(v) == len(names) and int(v[kind]) != 2:
				points.append((float(v[x]), float(v[y]), float(v[z])))
	return points


# diffuse particles' radius in world units of the run (the scenes' h is 1): about a third of a
# fluid particle's, as puddle's own pictures draw them (shaders/liquid/look.h, DIFFUSE_SIZE)
DIFFUSE_RADIUS = 0.15


def import_diffuse(path, material):
	"""A frame's spray and foam as a point cloud of white spheres (geometry nodes: Mesh to Points,
	which Cycles renders as spheres), or None when it has none."""
	points = read_diffuse_ply(path)
	if not points:
		return None
	mesh = bpy.data.meshes.new("diffuse")
	mesh.from_pydata([bl(p) for p in points], [], [])
	o = bpy.data.objects.new("diffuse", mesh)
	link(o)
	group = bpy.data.node_groups.new("puddle diffuse points", "GeometryNodeTree")
	group.inputs.new("NodeSocketGeometry", "Geometry")
	group.outputs.new("NodeSocketGeometry", "Geometry")
	gin, gout = group.nodes.new("NodeGroupInput"), group.nodes.new("NodeGroupOutput")
	spheres = group.nodes.new("GeometryNodeMeshToPoints")
	spheres.inputs["Radius"].default_value = DIFFUSE_RADIUS
	paint = group.nodes.new("GeometryNodeSetMaterial")
	paint.inputs["Material"].default_value = material
	group.links.new(gin.outputs[0], spheres.inputs["Mesh"])
	group.links.new(spheres.outputs["Points"], paint.inputs["Geometry"])
	group.links.new(paint.outputs["Geometry"], gout.inputs[0])
	o.modifiers.new("points", "NODES").node_group = group
	return o


def remove_object(o):
	mesh = o.data
	bpy.data.objects.remove(o, do_unlink=True)
	if mesh is not None and mesh.users == 0:
		bpy.data.meshes.remove(mesh)


def image_pixels(path):
	img = bpy.data.images.load(path, check_existing=False)
	w, h = img.size
	buf = array.array("f", [0.0]) * (w * h * img.channels)
	img.pixels.foreach_get(buf)
	ch = img.channels
	bpy.data.images.remove(img)
	return w, h, ch, buf


def luminance_stats(px):
	w, h, ch, buf = px
	n = w * h
	s = s2 = 0.0
	for i in range(0, n * ch, ch):
		lum = 0.2126 * buf[i] + 0.7152 * buf[i + 1] + 0.0722 * buf[i + 2]
		s += lum
		s2 += lum * lum
	mean = s / n
	return mean, math.sqrt(max(0.0, s2 / n - mean * mean))


def mean_abs_diff(a, b):
	w, h, ch, x = a
	_, _, ch2, y = b
	total = 0.0
	for i in range(w * h):
		for k in range(3):
			total += abs(x[i * ch + k] - y[i * ch2 + k])
	return total / (3 * w * h)


def render_to(path):
	sc = bpy.context.scene
	sc.render.filepath = path
	t0 = time.perf_counter()
	bpy.ops.render.render(write_still=True)
	return time.perf_counter() - t0


def make_video(frames_pngs, fps, video):
	ffmpeg = shutil.which("ffmpeg")
	if not ffmpeg:
		raise RuntimeError("--video: ffmpeg is not on PATH")
	d = os.path.dirname(os.path.abspath(video))
	os.makedirs(d, exist_ok=True)
	listing = os.path.abspath(video) + ".frames.txt"
	with open(listing, "w") as f:
		for p in frames_pngs:
			f.write(f"file '{os.path.abspath(p)}'\nduration {1 / fps:.6f}\n")
		f.write(f"file '{os.path.abspath(frames_pngs[-1])}'\n")  # the concat demuxer's last-duration rule
	cmd = [ffmpeg, "-y", "-loglevel", "error", "-f", "concat", "-safe", "0", "-i", listing, "-r", f"{fps:.6g}",
	       "-c:v", "libx264", "-pix_fmt", "yuv420p", "-crf", "20", video]
	r = subprocess.run(cmd)
	os.remove(listing)
	if r.returncode != 0:
		raise RuntimeError(f"--video: ffmpeg failed (exit {r.returncode})")


def main(argv):
	opts = parse_args(argv)
	run = opts["run"]
	if not os.path.isdir(run):
		raise UsageError(f"{run}: no such folder")
	sdir = os.path.join(run, "surface")
	if not os.path.isdir(sdir):
		raise UsageError(f"{run}: no surface/ folder (run puddle with --surface on a 3D scene)")
	frames = []
	for name in os.listdir(sdir):
		m = re.fullmatch(r"frame_(\d+)\.ply", name)
		if m:
			frames.append((int(m.group(1)), os.path.join(sdir, name)))
	frames.sort()
	if not frames:
		raise UsageError(f"{sdir}: no frame_*.ply files (run puddle with --surface on a 3D scene)")
	lo, hi = opts["frames"]
	chosen = [f for f in frames if (lo is None or f[0] >= lo) and (hi is None or f[0] <= hi)]
	if not chosen:
		raise UsageError(f"--frames: none of the {len(frames)} surface frames ({frames[0][0]} to {frames[-1][0]}) is in range")
	info = read_scene(opts["scene"], opts["scale"])
	out = opts["out"] or os.path.join(run, "blender")
	os.makedirs(out, exist_ok=True)

	bpy.ops.wm.read_factory_settings(use_empty=True)
	import addon_utils
	addon_utils.enable("io_mesh_ply", default_set=True)
	denoiser = setup_render(opts)
	build_stage(info)
	water = water_material()
	white = white_water_material()
	print(f"{PROG}: {len(chosen)} frames of {run} at {opts['size'][0]}x{opts['size'][1]}, {opts['samples']} samples, "
	      f"Cycles on the CPU, denoiser {denoiser or 'none (this Blender has no OpenImageDenoise)'}", flush=True)

	report = {"run": run, "scene": opts["scene"], "size": list(opts["size"]), "samples": opts["samples"],
	          "device": "CPU", "denoiser": denoiser, "scale": opts["scale"], "frames": []}
	empty_px = None
	if opts["empty_tank"]:
		path = os.path.join(out, "empty_tank.png")
		secs = render_to(path)
		empty_px = image_pixels(path)
		mean, std = luminance_stats(empty_px)
		report["empty_tank"] = {"file": path, "seconds": round(secs, 3), "mean": mean, "std": std}
		print(f"{PROG}: {path} ({secs:.2f} s)", flush=True)
	pngs = []
	t_all = time.perf_counter()
	for number, ply in chosen:
		t0 = time.perf_counter()
		o = import_ply(ply, water)
		diffuse_ply = os.path.join(sdir, f"diffuse_{number:06d}.ply")
		spray = import_diffuse(diffuse_ply, white) if os.path.exists(diffuse_ply) else None
		t_import = time.perf_counter() - t0
		triangles = len(o.data.polygons)
		diffuse = len(spray.data.vertices) if spray else 0
		path = os.path.join(out, f"frame_{number:06d}.png")
		secs = render_to(path)
		remove_object(o)
		if spray:
			group = spray.modifiers[0].node_group
			remove_object(spray)
			bpy.data.node_groups.remove(group)
		px = image_pixels(path)
		mean, std = luminance_stats(px)
		entry = {"frame": number, "file": path, "triangles": triangles, "diffuse": diffuse,
		         "import_seconds": round(t_import, 3),
		         "seconds": round(secs, 3), "mean": mean, "std": std}
		if empty_px is not None:
			entry["diff_empty"] = mean_abs_diff(px, empty_px)
		report["frames"].append(entry)
		pngs.append(path)
		print(f"{PROG}: {path} ({triangles} triangles, {diffuse} diffuse particles, import {t_import:.2f} s, "
		      f"render {secs:.2f} s)", flush=True)
	report["total_seconds"] = round(time.perf_counter() - t_all, 3)
	if opts["video"]:
		fps = opts["fps"]
		if fps is None:
			steps = [b[0] - a[0] for a, b in zip(chosen, chosen[1:])]
			step = sorted(steps)[len(steps) // 2] if steps else 1
			fps = 1.0 / (info["dt"] * max(step, 1))
		make_video(pngs, fps, opts["video"])
		report["video"] = {"file": opts["video"], "fps": fps}
		print(f"{PROG}: {opts['video']} ({len(pngs)} frames at {fps:.3g} fps)", flush=True)
	with open(os.path.join(out, "render.json"), "w") as f:
		json.dump(report, f, indent=1)


if __name__ == "__main__":
	args = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
	try:
		main(args)
	except UsageError as e:
		fail(str(e), 2)
	except Exception as e:  # Blender would print the traceback and still exit 0
		import traceback
		traceback.print_exc()
		fail(f"error: {e}", 1)
	sys.exit(0)
