//! `petstore`: settings → store → listener → serve (see [`petstore::cli`]).

use clap::{CommandFactory, FromArgMatches};
use petstore::cli::{self, Cli, Command};
#[cfg(windows)]
use petstore::service::{self, ServiceCommand};
use petstore::Settings;

fn main() -> std::process::ExitCode {
    let matches = Cli::command().get_matches();
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|err| err.exit());
    // The server's settings are read before the log starts, since they say where it goes.
    let serving = match cli.command {
        Some(Command::Serve(_)) | None => match cli::serve_settings(&matches) {
            Ok(settings) => Some(settings),
            Err(err) => return failed(&err),
        },
        #[cfg(windows)]
        Some(Command::Service(ServiceCommand::Run(_))) => match cli::serve_settings(&matches) {
            Ok(settings) => Some(settings),
            Err(err) => return failed(&err),
        },
        _ => None,
    };
    let log_settings = serving.as_ref().map(|s| s.log.clone()).unwrap_or_default();
    let log_file = match petstore::logfile::writer(&log_settings) {
        Ok(file) => file,
        Err(err) => return failed(&err),
    };
    // Log lines are written by a background thread, so a slow terminal, pipe or disk never
    // holds up a request: when its buffer is full, lines are dropped (never waited for) and
    // counted, and the count is reported. The guard flushes what is left when main returns.
    let (log_writer, dropped, _flush_on_exit) =
        match petstore::logqueue::spawn(log_file, petstore::logfile::write_size(&log_settings)) {
            Ok(started) => started,
            Err(err) => return failed(&petstore::Error::from(err)),
        };
    report_dropped_log_lines(dropped);
    let colours =
        log_settings.file.is_none() && std::io::IsTerminal::is_terminal(&std::io::stderr());
    if !colours {
        petstore::logqueue::take_request_lines(log_writer.clone());
    }
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("PETSTORE_LOG")
                .unwrap_or_else(|_| "info".into()),
        )
        .with_writer(log_writer)
        .with_ansi(colours)
        .with_target(false)
        .init();
    petstore::data_folder::log_notes();
    let mut out = std::io::stdout();
    let result = match (cli.command, serving) {
        #[cfg(windows)]
        (Some(Command::Service(ServiceCommand::Run(_))), Some(settings)) => service::run(settings),
        (_, Some(settings)) => run_server(settings),
        (Some(Command::Keys(command)), _) => cli::keys(cli.db, command, &mut out),
        (Some(Command::Backup { file }), _) => cli::backup(cli.db, file, &mut out),
        (Some(Command::ContractFacts), _) => {
            use std::io::Write;
            out.write_all(petstore::contract::facts_json().as_bytes())
                .map_err(petstore::Error::from)
        }
        (Some(Command::Restore { file }), _) => cli::restore(cli.db, file, &mut out),
        (Some(Command::Demo(args)), _) => run_async(cli::demo(cli.db, args)),
        #[cfg(windows)]
        (Some(Command::Service(ServiceCommand::Install { serve })), _) => {
            service::install(cli.db, serve, &mut out)
        }
        #[cfg(windows)]
        (Some(Command::Service(ServiceCommand::Uninstall)), _) => service::uninstall(&mut out),
        // Serving always has its settings (read above, or the program already stopped).
        (Some(Command::Serve(_)) | None, None) => Ok(()),
        #[cfg(windows)]
        (Some(Command::Service(ServiceCommand::Run(_))), None) => Ok(()),
    };
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(err) => failed(&err),
    }
}

/// Says why the program stops, in one line, and exits non-zero.
fn failed(err: &petstore::Error) -> std::process::ExitCode {
    eprintln!("petstore: {err}");
    std::process::ExitCode::FAILURE
}

fn run_server(settings: Settings) -> Result<(), petstore::Error> {
    run_async(cli::serve(settings))
}

fn run_async(
    task: impl std::future::Future<Output = Result<(), petstore::Error>>,
) -> Result<(), petstore::Error> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?
        .block_on(task)
}

/// Says now and then how many log lines were dropped because the log could not keep up.
fn report_dropped_log_lines(counter: petstore::logqueue::Dropped) {
    let spawned = std::thread::Builder::new()
        .name("log-dropped".into())
        .spawn(move || {
            let mut reported = 0;
            loop {
                std::thread::sleep(std::time::Duration::from_secs(10));
                let dropped = counter.dropped_lines();
                if dropped > reported {
                    eprintln!(
                        "petstore: {} log lines dropped ({dropped} in all): the log could not keep up",
                        dropped - reported
                    );
                    reported = dropped;
                }
            }
        });
    if let Err(err) = spawned {
        eprintln!("petstore: cannot watch the log for dropped lines: {err}");
    }
}
