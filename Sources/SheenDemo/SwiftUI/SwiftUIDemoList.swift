// The demo's card list written in SwiftUI (SheenUI), as an iOS developer would write it: the
// same content, sizes and colours as the UIKit list, made of views, modifiers and state instead
// of UIView subclasses and layoutSubviews.

import SheenUI

/// The whole list: a header, then each section's title and its rows of cards, in a scroll view,
/// with as many columns of cards as fit the window. Each title and each row of cards is a row of
/// the lazy stack, as each is an item of the UIKit list's collection view: rows are made (and
/// given back) one row of cards at a time as they scroll in and out, a piece of work that fits
/// between two frames. The space between sections is written as the titles' and the rows' own
/// (titles reach 4 points above their row, every row of cards has 20 points below it), so that
/// the rows of each kind are all one height: the lazy stack's estimate of the rows not made yet
/// is exact, and the list has the UIKit list's height before it is all made.
public struct SwiftUIDemoList: View {
  let cardCount: Int

  /// The list of `cardCount` cards, in sections of `DemoContent.cardsPerSection`.
  public init(cardCount: Int = DemoContent.cardCount) { self.cardCount = cardCount }

  public var body: some View {
    GeometryReader { proxy in
      let width = proxy.size.width - 2 * Layout.margin
      let rows = SwiftUIDemoRows(cardCount: cardCount, columns: Layout.columns(width))
      ScrollView {
        LazyVStack(alignment: .leading, spacing: 0) {
          SwiftUIDemoHeader(width: width, cardCount: cardCount)
            .padding(.bottom, 16)
          ForEach(rows) { row in
            switch row.kind {
            case .title(let section):
              SwiftUISectionTitle(index: section, cardCount: cardCount, width: width)
                .padding(.top, -4)
            case .cards(let style, let cards):
              SwiftUICardRow(style: style, cards: cards, width: width)
                .padding(.bottom, Layout.spacing)
            }
          }
        }
        .padding([.horizontal, .top], Layout.margin)
        .padding(.bottom, Layout.margin - 4)
      }
    }
    .background(Color(red: 0.93, green: 0.94, blue: 0.96))
  }

  /// The UIKit list's measures.
  enum Layout {
    static let margin: CGFloat = 20
    static let spacing: CGFloat = 20
    static let minimumCardWidth: CGFloat = 300
    static let cardHeight: CGFloat = 200

    /// Cards to a row in `width` points.
    static func columns(_ width: CGFloat) -> Int {
      max(1, Int((width + spacing) / (minimumCardWidth + spacing)))
    }

    /// The width of each card of a row of `columns` in `width`.
    static func cardWidth(_ width: CGFloat, columns: Int) -> CGFloat {
      ((width - CGFloat(columns - 1) * spacing) / CGFloat(columns)).rounded(.down)
    }
  }
}

/// The rows of the list below its header, worked out when asked for (a list of a million cards
/// keeps none): each section's title, then its cards, `columns` to a row.
struct SwiftUIDemoRows: RandomAccessCollection {
  let cardCount: Int
  let columns: Int

  /// A row of the list, known by what it shows.
  struct Row: Identifiable, Hashable {
    enum Kind: Hashable {
      /// Section `index`'s title.
      case title(Int)
      case cards(DemoContent.ShadowStyle, Range<Int>)
    }
    var kind: Kind
    var id: ID
  }

  /// A title by its section; a row of cards by its first card and the columns (a row keeps its
  /// identity, and its cards their state, while it shows the same cards).
  struct ID: Hashable {
    var first: Int
    var columns: Int
  }

  /// Rows of a whole section: its title and its rows of cards.
  var rowsPerSection: Int { 1 + (DemoContent.cardsPerSection + columns - 1) / columns }

  var startIndex: Int { 0 }
  var endIndex: Int {
    let sections = DemoContent.sectionCount(cards: cardCount)
    guard sections > 0 else { return 0 }
    let last = cardCount - (sections - 1) * DemoContent.cardsPerSection
    return (sections - 1) * rowsPerSection + 1 + (last + columns - 1) / columns
  }

  subscript(i: Int) -> Row {
    let s = i / rowsPerSection
    let k = i % rowsPerSection
    let start = s * DemoContent.cardsPerSection
    guard k > 0 else { return Row(kind: .title(s), id: ID(first: start, columns: 0)) }
    let first = start + (k - 1) * columns
    let end = Swift.min(cardCount, start + DemoContent.cardsPerSection)
    return Row(
      kind: .cards(DemoContent.style(ofSection: s), first..<Swift.min(first + columns, end)),
      id: ID(first: first, columns: columns))
  }
}

/// The list's header: what the demo is and what its sections show.
struct SwiftUIDemoHeader: View {
  let width: CGFloat
  var cardCount = DemoContent.cardCount

  var body: some View {
    // Wide enough windows keep the text clear of the FPS overlay at the top right.
    let text = max(0, width - 48 - (width > 760 ? FPSOverlay.size.width : 0))
    ZStack(alignment: .topLeading) {
      Color(red: 0.11, green: 0.12, blue: 0.19)
      LinearGradient(
        colors: [
          Color(hue: 0.72, saturation: 0.6, brightness: 0.95),
          Color(hue: 0.55, saturation: 0.7, brightness: 0.9),
        ], startPoint: .leading, endPoint: .trailing
      )
      .frame(height: 6)
      VStack(alignment: .leading, spacing: 0) {
        Text("Sheen: \(cardCount) cards drawn by the CPU")
          .font(.system(size: 24, weight: .bold))
          .foregroundColor(.white)
          .lineLimit(1)
          .frame(width: text, height: 30, alignment: .leading)
          .padding(.top, 22)
        Text(
          "A SwiftUI list: every card is a View with rounded, clipped corners, a gradient button and"
            + " stroked tags, composited each frame by Sheen's own rasterizer. Tap a button, drag, fling or"
            + " use the wheel and the keys."
        )
        .font(.system(size: 14))
        .foregroundColor(Color(white: 0.85))
        .lineLimit(2)
        .frame(width: text, height: 36, alignment: .leading)
        .padding(.top, 6)
        Text(
          "Odd sections: one shadow per clear row container (seed 001).  Even sections: a shadow per card"
            + " with an explicit shadowPath (seeds 000, 003)."
        )
        .font(.system(size: 13, weight: .semibold))
        .foregroundColor(Color(hue: 0.55, saturation: 0.35, brightness: 1))
        .lineLimit(2)
        .frame(width: text, height: 34, alignment: .leading)
        .padding(.top, 8)
      }
      .padding(.leading, 24)
    }
    .frame(width: width, height: 150)
    .cornerRadius(20)
  }
}

/// One section: a title, a line saying what it shows, and its cards in rows (the list makes its
/// title and rows as rows of its own; this view shows a whole section, for previews).
struct SwiftUISectionView: View {
  let section: DemoContent.Section
  let width: CGFloat

  var body: some View {
    let s = SwiftUIDemoList.Layout.spacing
    let columns = SwiftUIDemoList.Layout.columns(width)
    let rows = Array(stride(from: section.cards.lowerBound, to: section.cards.upperBound, by: columns))
    VStack(alignment: .leading, spacing: 0) {
      SwiftUISectionTitle(
        index: section.cards.lowerBound / DemoContent.cardsPerSection, cardCount: section.cards.upperBound,
        width: width)
      VStack(alignment: .leading, spacing: s) {
        ForEach(rows, id: \.self) { first in
          SwiftUICardRow(
            style: section.style, cards: first..<min(first + columns, section.cards.upperBound), width: width)
        }
      }
      .frame(width: width, alignment: .leading)
    }
  }
}

/// A section's title and the line saying what it shows.
struct SwiftUISectionTitle: View {
  /// Section `index` of a list of `cardCount` cards (its text is made when it shows).
  let index: Int
  let cardCount: Int
  let width: CGFloat

  var body: some View {
    let section = DemoContent.section(index, cards: cardCount)
    VStack(alignment: .leading, spacing: 0) {
      Text(section.title)
        .font(.system(size: 20, weight: .bold))
        .foregroundColor(Color(white: 0.12))
        .lineLimit(1)
        .frame(width: width, height: 26, alignment: .leading)
        .padding(.top, 8)
      Text(section.detail)
        .font(.system(size: 13))
        .foregroundColor(Color(white: 0.4))
        .lineLimit(1)
        .frame(width: width, height: 18, alignment: .leading)
        .padding(.top, 2)
        .padding(.bottom, 10)
    }
  }
}

/// A row of a section's cards, as many as fit `width`. In a container section the row carries
/// one shadow (seed 001); in the others each card has its own.
struct SwiftUICardRow: View {
  let style: DemoContent.ShadowStyle
  let cards: Range<Int>
  let width: CGFloat

  var body: some View {
    let s = SwiftUIDemoList.Layout.spacing
    let cardWidth = SwiftUIDemoList.Layout.cardWidth(width, columns: SwiftUIDemoList.Layout.columns(width))
    if style == .container {
      HStack(spacing: s) {
        ForEach(cards, id: \.self) { i in
          SwiftUICardView(content: CardContent(index: i))
            .frame(width: cardWidth, height: SwiftUIDemoList.Layout.cardHeight)
        }
      }
      .shadow(color: .black.opacity(0.28), radius: 8, x: 0, y: 4)
    } else {
      HStack(spacing: s) {
        ForEach(cards, id: \.self) { i in
          SwiftUICardView(content: CardContent(index: i))
            .frame(width: cardWidth, height: SwiftUIDemoList.Layout.cardHeight)
            .background(
              RoundedRectangle(cornerRadius: 16).fill(Color.white)
                .shadow(color: .black.opacity(0.10), radius: 8, x: 0, y: 5))
        }
      }
    }
  }
}

/// One card: radius 16, clipped; a coloured header (a strip or a generated picture), a bold
/// title, a two-line subtitle, tags rounded on chosen corners, and a primary button whose taps
/// the card counts in a badge.
///
/// The parts that do not show the tap count are views of their own, as SwiftUI's guides advise
/// ("extract subviews"): a tap asks for the card's body again, and those parts, whose values
/// did not change, keep their bodies (the header, the title, the subtitle and each tag).
struct SwiftUICardView: View {
  let content: CardContent
  @State var taps = 0

  static let headerHeight: CGFloat = 72
  static let inset: CGFloat = 16

  var body: some View {
    ZStack(alignment: .topLeading) {
      Color.white
      SwiftUICardHeader(content: content)
      VStack(alignment: .leading, spacing: 0) {
        SwiftUICardTitle(content: content)
        SwiftUICardSubtitle(content: content)
        Spacer(minLength: 0)
        HStack(spacing: 6) {
          ForEach(Array(content.tags.enumerated()), id: \.offset) { k, tag in
            SwiftUITagView(
              text: tag, hue: content.hue, corners: Self.corners[(content.index + k) % Self.corners.count])
          }
          Spacer(minLength: 8)
          Button(content.buttonTitle.uppercased()) {
            withAnimation(.spring(response: 0.225, dampingFraction: 0.55)) { taps += 1 }
          }
          .buttonStyle(PrimaryButtonStyle(hue: content.buttonHue))
          .fixedSize()
          .accessibilityIdentifier("card-\(content.index)-button")
        }
        .frame(height: 28)
        .padding(.bottom, Self.inset)
      }
      .padding(.horizontal, Self.inset)
      SwiftUIBadge(taps: taps)
        .frame(maxWidth: .infinity, alignment: .trailing)
        .padding(.top, 12)
        .padding(.trailing, 12)
    }
    .cornerRadius(16)
  }

  /// Each tag rounds a different choice of corners (seed 004).
  static let corners: [UIRectCorner] = [
    [.topLeft, .bottomRight], [.topRight, .bottomLeft], [.topLeft, .topRight], .allCorners,
  ]
}

/// Where a card's lines begin: right-to-left text (Arabic, Hebrew) at the trailing edge, as the
/// UIKit labels' natural alignment puts it.
extension CardContent {
  var lineStart: HorizontalAlignment {
    language == "Arabic" || language == "Hebrew" ? .trailing : .leading
  }
  var lineStartAlignment: Alignment { Alignment(horizontal: lineStart, vertical: .center) }
}

/// A card's title, with a round photo beside it on some cards.
struct SwiftUICardTitle: View {
  let content: CardContent

  var body: some View {
    HStack(spacing: 8) {
      // A round photo beside the title of some cards: 28 points, centred on the title's line
      // (it reaches 3 points above and below it).
      if let name = content.avatar, let photo = CardView.photo(name) {
        Image(uiImage: photo).resizable().scaledToFill()
          .frame(width: CardView.avatarSize, height: CardView.avatarSize)
          .clipShape(Circle())
          .frame(width: CardView.avatarSize, height: 22)
      }
      Text(content.title)
        .font(.system(size: 17, weight: .bold))
        .foregroundColor(.primary)
        .lineLimit(1)
        .frame(
          maxWidth: .infinity, minHeight: 22, maxHeight: 22,
          alignment: Alignment(horizontal: content.lineStart, vertical: .titleLine))
    }
    .padding(.top, SwiftUICardView.headerHeight + 10)
  }
}

/// A card's two-line subtitle.
struct SwiftUICardSubtitle: View {
  let content: CardContent

  var body: some View {
    // Two lines of 13-point DejaVu Sans fit 34 points; the fallback fonts of the cards in other
    // languages (CJK, Devanagari) have taller lines.
    let subtitleHeight: CGFloat = content.language == nil ? 34 : 40
    Text(content.subtitle)
      .font(.system(size: 13))
      .foregroundColor(Color(white: 0.38))
      .lineLimit(2)
      .frame(
        maxWidth: .infinity, minHeight: subtitleHeight, maxHeight: subtitleHeight,
        alignment: content.lineStartAlignment
      )
      .padding(.top, 2)
  }
}

/// A card's header: a photo, a flat strip (with a small chart on some cards) or a generated
/// picture.
struct SwiftUICardHeader: View {
  let content: CardContent

  var body: some View {
    let hue = content.hue
    let headerHeight = SwiftUICardView.headerHeight
    switch content.header {
    case .photo(let name):
      // The bundled photo filling the header (aspect fill), cut at its edges; without the
      // bundled photos, a strip (as the UIKit card).
      if let photo = CardView.photo(name) {
        Image(uiImage: photo).resizable().scaledToFill()
          .frame(height: headerHeight)
          .clipped()
      } else {
        Color(hue: hue, saturation: 0.55, brightness: 0.92)
          .frame(height: headerHeight)
      }
    case .strip:
      ZStack(alignment: .topLeading) {
        Color(hue: hue, saturation: 0.55, brightness: 0.92)
        // Some flat headers show a small chart (UIKit draws it in draw(_:)).
        if let trend = content.trend {
          SwiftUISparkline(values: trend.map { CGFloat($0) }).padding(.top, 14).padding(
            .leading, SwiftUICardView.inset)
        }
      }
      .frame(height: headerHeight)
    case .image:
      // A generated picture: a diagonal gradient with a few translucent circles.
      GeometryReader { proxy in
        let w = proxy.size.width
        ZStack(alignment: .topLeading) {
          LinearGradient(
            colors: [
              Color(hue: hue, saturation: 0.65, brightness: 0.95),
              Color(hue: hue + 0.12, saturation: 0.75, brightness: 0.70),
            ], startPoint: .topLeading, endPoint: .bottomTrailing)
          ForEach(0..<3) { i in
            let spot = Self.spots[i]
            Circle()
              .fill(Color.white.opacity(0.16 + 0.06 * Double(i)))
              .frame(width: 2 * spot.2, height: 2 * spot.2)
              .offset(x: w * spot.0 - spot.2, y: headerHeight * spot.1 - spot.2)
          }
        }
      }
      .frame(height: headerHeight)
    }
  }

  static let spots: [(CGFloat, CGFloat, CGFloat)] = [(0.78, 0.2, 46), (0.62, 1.0, 30), (0.93, 0.85, 22)]
}

/// The title's line: a text that fits it is centred on it; a taller one (a fallback font's
/// line, in Chinese or Thai) starts at its top, as a UIKit label keeps the lines that fit.
enum TitleLine: AlignmentID {
  static let height: CGFloat = 22
  static func defaultValue(in d: ViewDimensions) -> CGFloat { min(d.height, height) / 2 }
}

extension VerticalAlignment {
  static let titleLine = VerticalAlignment(TitleLine.self)
}

/// The tap count in a white pill with a green check, at the card's top right; it springs in
/// with the first tap.
struct SwiftUIBadge: View {
  let taps: Int

  var body: some View {
    HStack(spacing: 0) {
      SwiftUICheckmark()
        .stroke(Color.green, style: StrokeStyle(lineWidth: 2.2, lineCap: .round, lineJoin: .round))
        .frame(width: 22, height: 24)
      Text("\(taps)")
        .font(.system(size: 12, weight: .bold))
        .foregroundColor(Color(white: 0.2))
        .lineLimit(1)
        .padding(.trailing, 10)
    }
    .frame(height: 24)
    .background(RoundedRectangle(cornerRadius: 12).fill(Color(white: 1, opacity: 0.92)))
    .scaleEffect(taps > 0 ? 1 : 0.4)
    .opacity(taps > 0 ? 1 : 0)
  }
}

/// The badge's check, as the UIKit card draws it in a 24-point box.
struct SwiftUICheckmark: Shape {
  func path(in rect: CGRect) -> Path {
    Path { p in
      p.move(to: CGPoint(x: rect.minX + 8, y: rect.minY + 12.5))
      p.addLine(to: CGPoint(x: rect.minX + 11.5, y: rect.minY + 16))
      p.addLine(to: CGPoint(x: rect.minX + 18, y: rect.minY + 8.5))
    }
  }
}

/// A tag rounded on chosen corners with a stroked outline (seed 004's shape): the fill and the
/// stroke of the same path, inset by half the line so that the stroke stays inside.
struct SwiftUITagView: View {
  let text: String
  let hue: Double
  let corners: UIRectCorner

  var body: some View {
    let shape = SwiftUITagShape(corners: corners)
    Text(text)
      .font(.system(size: 11, weight: .medium))
      .foregroundColor(Color(hue: hue, saturation: 0.7, brightness: 0.45))
      .lineLimit(1)
      .multilineTextAlignment(.center)
      .padding(.horizontal, 8)
      .frame(height: 20)
      .background(
        shape.fill(Color(hue: hue, saturation: 0.12, brightness: 1))
          .overlay(shape.stroke(Color(hue: hue, saturation: 0.55, brightness: 0.75), lineWidth: 1)))
  }
}

struct SwiftUITagShape: Shape {
  var corners: UIRectCorner

  func path(in rect: CGRect) -> Path {
    Path(
      UIBezierPath(
        roundedRect: rect.insetBy(dx: 0.5, dy: 0.5), byRoundingCorners: corners,
        cornerRadii: CGSize(width: 8, height: 8)
      ).cgPath)
  }
}

/// The card's "primary" button (seed 002) as a button style: a vertical gradient, a half-point
/// gradient border, radius 4, a small shadow, a bold white title; pressed, it shrinks to 0.95,
/// darkens and tightens its shadow (SheenUI animates the press and the release as UIKit's demo
/// does).
struct PrimaryButtonStyle: ButtonStyle {
  let hue: Double

  func makeBody(configuration: Configuration) -> some View {
    let dim = configuration.isPressed ? 0.78 : 1
    let pressed = configuration.isPressed
    configuration.label
      .font(.system(size: 12, weight: .bold))
      .foregroundColor(.white)
      .lineLimit(1)
      .multilineTextAlignment(.center)
      .padding(.horizontal, 14)
      .frame(minWidth: 76, minHeight: 28, maxHeight: 28)
      .background(
        LinearGradient(
          colors: [
            Color(hue: hue, saturation: 0.58, brightness: 0.97 * dim),
            Color(hue: hue, saturation: 0.80, brightness: 0.96 * dim),
          ], startPoint: .top, endPoint: .bottom
        )
        .cornerRadius(4)
      )
      .overlay(
        RoundedRectangle(cornerRadius: 4).strokeBorder(
          LinearGradient(
            colors: [
              Color(hue: hue, saturation: 0.59, brightness: 0.90),
              Color(hue: hue, saturation: 0.82, brightness: 0.90),
            ], startPoint: .top, endPoint: .bottom), lineWidth: 0.5)
      )
      .shadow(color: .black.opacity(0.2), radius: pressed ? 0.5 : 1, x: 0, y: pressed ? 0.25 : 0.5)
      .scaleEffect(pressed ? 0.95 : 1)
  }
}

// MARK: - Previews

/// One card of the SwiftUI list, at the width of a card in a 1080p window.
public struct SwiftUICardView_Previews: PreviewProvider {
  public static var previews: some View {
    SwiftUICardView(content: CardContent(index: 0))
      .frame(width: 360, height: SwiftUIDemoList.Layout.cardHeight)
      .padding()
  }
}

/// A section of the SwiftUI list, two columns wide.
public struct SwiftUISectionView_Previews: PreviewProvider {
  public static var previews: some View {
    SwiftUISectionView(section: DemoContent.sections[0], width: 740)
      .padding()
      .background(Color(red: 0.93, green: 0.94, blue: 0.96))
  }
}

/// The previews `sheen preview` knows.
public enum DemoPreviews {
  public static func register() {
    PreviewRenderer.register(SwiftUICardView_Previews.self)
    PreviewRenderer.register(SwiftUISectionView_Previews.self)
  }
}
