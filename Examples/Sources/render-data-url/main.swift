// A source kind of your own: `render-data-url FILTERS_D OUT [DATA_URL]` registers the data-url kind
// (DataURLSource), builds the pipeline from the folder (which selects the kind in
// [sources.inline]), renders the URL (a 16×16 PNG gradient unless one is given) as the
// "card" variant, and writes it to OUT.
import DataURLSource
import Darkroom
import Glibc  // exit

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count == 2 || arguments.count == 3 else {
    print("usage: render-data-url FILTERS_D OUT [DATA_URL]")
    exit(64)
}
let gradient = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAABAAAAAQBAMAAADt3eJSAAAAMFBMVEX/iADugxHdfiLMejO7dUSqcVWZbGaIaHd3Y4hmX5lVWqpEVrszUcwiTd0RSO4ARP8Dmn7vAAAAO0lEQVQI1zXBwQAAIQAAwVVIIYUUUkghhRRSSCGFUziFFFKozzYDTxBRJJFFEVU00cUQU3ziF0tscXQBlZU/wUAVODIAAAAASUVORK5CYII="
do {
    var registry = Registry.standard
    DataURLSource.register(in: &registry)
    let pipeline = try ImagePipeline(directory: arguments[0], registry: registry)
    let card = try await pipeline.image(for: arguments.count == 3 ? arguments[2] : gradient, variant: "card")
    try AtomicFileWriter.write(card.bytes, to: arguments[1])
    print("card: \(card.bytes.count) bytes of \(card.format)")
} catch {
    print("render-data-url: \(error)")
    exit(1)
}
