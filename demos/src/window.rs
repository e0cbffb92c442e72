//! The live window of a demo (winit + a wgpu surface): frames per second and GPU milliseconds
//! in the title.

use std::sync::Arc;
use std::time::Instant;

use shoal::{BackendChoice, Gpu, wgpu};
use winit::application::ApplicationHandler;
use winit::event::WindowEvent;
use winit::event_loop::{ActiveEventLoop, EventLoop};
use winit::window::{Window, WindowId};

use crate::cli::Options;
use crate::demo::{Demo, DemoError};

/// Opens a window and runs `D` until it is closed.
pub fn run<D: Demo>(options: Options) -> Result<(), DemoError> {
    let event_loop = EventLoop::new()?;
    let mut app = App::<D> {
        options,
        state: None,
        error: None,
    };
    event_loop.run_app(&mut app)?;
    match app.error {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

struct App<D: Demo> {
    options: Options,
    state: Option<State<D>>,
    error: Option<DemoError>,
}

struct State<D> {
    window: Arc<Window>,
    surface: wgpu::Surface<'static>,
    config: wgpu::SurfaceConfiguration,
    gpu: Gpu,
    demo: D,
    frame: u64,
    counted: (Instant, u32),
    gpu_ms: f64,
    watcher: crate::reload::Watcher,
}

impl<D: Demo> App<D> {
    fn start(&mut self, event_loop: &ActiveEventLoop) -> Result<State<D>, DemoError> {
        let [w, h] = self.options.size;
        let attributes = Window::default_attributes()
            .with_title(format!("shoal — {}", D::NAME))
            .with_inner_size(winit::dpi::PhysicalSize::new(w, h));
        let window = Arc::new(event_loop.create_window(attributes)?);
        let mut desc = wgpu::InstanceDescriptor::new_with_display_handle_from_env(Box::new(
            event_loop.owned_display_handle(),
        ));
        desc.backends = BackendChoice::from_env()?.backends();
        let instance = wgpu::Instance::new(desc);
        let surface = instance.create_surface(Arc::clone(&window))?;
        let adapter = pollster::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions {
            compatible_surface: Some(&surface),
            ..Default::default()
        }))?;
        let gpu = pollster::block_on(Gpu::from_adapter(Some(instance), adapter.clone()))?;
        let size = window.inner_size();
        let config = surface
            .get_default_config(&adapter, size.width.max(1), size.height.max(1))
            .ok_or("the surface does not work with this adapter")?;
        surface.configure(gpu.device(), &config);
        let demo = D::new(&gpu, &self.options, config.format)?;
        println!("{} on {}", D::NAME, gpu.adapter_details());
        let watcher = crate::reload::Watcher::new(&crate::reload::workspace_root(), demo.sources());
        if !watcher.is_empty() {
            println!("hot reload: watching {}", demo.sources().join(", "));
        }
        Ok(State {
            window,
            surface,
            config,
            gpu,
            demo,
            frame: 0,
            counted: (Instant::now(), 0),
            gpu_ms: 0.0,
            watcher,
        })
    }
}

impl<D: Demo> State<D> {
    /// Hands edited WGSL files to the demo; a failed rebuild is printed and the old kernels run on.
    fn reload(&mut self) {
        for changed in self.watcher.poll() {
            let result = changed.and_then(|source| {
                let path = source.path().to_string();
                self.demo
                    .reload(&self.gpu, source)
                    .map(|()| path)
                    .map_err(|e| e.to_string())
            });
            match result {
                Ok(path) => println!("hot reload: rebuilt the kernels of {path}"),
                Err(e) => eprintln!("hot reload: kept the old kernels\n{e}"),
            }
        }
    }

    fn frame(&mut self) -> Result<(), DemoError> {
        self.reload();
        let texture = match self.surface.get_current_texture() {
            wgpu::CurrentSurfaceTexture::Success(t)
            | wgpu::CurrentSurfaceTexture::Suboptimal(t) => t,
            wgpu::CurrentSurfaceTexture::Outdated | wgpu::CurrentSurfaceTexture::Lost => {
                self.surface.configure(self.gpu.device(), &self.config);
                return Ok(());
            }
            _ => return Ok(()),
        };
        let view = texture.texture.create_view(&Default::default());
        // Time every 30th frame: reading timestamps waits for the GPU.
        let timed = self.frame.is_multiple_of(30);
        let mut commands = if timed {
            self.gpu.commands().profiled()
        } else {
            self.gpu.commands()
        };
        self.demo.update(&mut commands, self.frame)?;
        self.demo.draw(
            &mut commands,
            &view,
            [self.config.width, self.config.height],
        )?;
        let submission = commands.submit()?;
        if timed {
            self.gpu_ms = pollster::block_on(submission.timings())?
                .iter()
                .map(|t| t.millis())
                .sum();
        }
        self.window.pre_present_notify();
        self.gpu.queue().present(texture);
        self.frame += 1;
        self.counted.1 += 1;
        let elapsed = self.counted.0.elapsed().as_secs_f64();
        if elapsed >= 1.0 {
            let fps = self.counted.1 as f64 / elapsed;
            self.window.set_title(&format!(
                "shoal — {} — {fps:.0} fps, GPU {:.2} ms/frame",
                D::NAME,
                self.gpu_ms
            ));
            self.counted = (Instant::now(), 0);
        }
        Ok(())
    }
}

impl<D: Demo> ApplicationHandler for App<D> {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.state.is_some() {
            return;
        }
        match self.start(event_loop) {
            Ok(state) => self.state = Some(state),
            Err(e) => {
                self.error = Some(e);
                event_loop.exit();
            }
        }
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _: WindowId, event: WindowEvent) {
        let Some(state) = &mut self.state else { return };
        match event {
            WindowEvent::CloseRequested => event_loop.exit(),
            WindowEvent::Resized(size) if size.width > 0 && size.height > 0 => {
                state.config.width = size.width;
                state.config.height = size.height;
                state.surface.configure(state.gpu.device(), &state.config);
            }
            WindowEvent::RedrawRequested => {
                if let Err(e) = state.frame() {
                    self.error = Some(e);
                    event_loop.exit();
                }
            }
            _ => {}
        }
    }

    fn about_to_wait(&mut self, _: &ActiveEventLoop) {
        if let Some(state) = &self.state {
            state.window.request_redraw();
        }
    }
}
