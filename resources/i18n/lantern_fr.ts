<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="fr_FR">
<context>
    <name>ChatPanel</name>
    <message>
        <location filename="../../desktop/chat.py" line="62"/>
        <source>New conversation</source>
        <translation>Nouvelle conversation</translation>
    </message>
    <message>
        <location filename="../../desktop/chat.py" line="76"/>
        <source>Ask about your books…  (Ctrl+L)</source>
        <translation>Pose une question sur tes livres…  (Ctrl+L)</translation>
    </message>
    <message>
        <location filename="../../desktop/chat.py" line="78"/>
        <source>Ask</source>
        <translation>Demander</translation>
    </message>
    <message>
        <location filename="../../desktop/chat.py" line="81"/>
        <source>Stop</source>
        <translation>Arrêter</translation>
    </message>
    <message>
        <location filename="../../desktop/chat.py" line="81"/>
        <source>Stop the answer (Esc)</source>
        <translation>Arrêter la réponse (Esc)</translation>
    </message>
    <message>
        <location filename="../../desktop/chat.py" line="83"/>
        <source>Copy answer</source>
        <translation>Copier la réponse</translation>
    </message>
    <message>
        <location filename="../../desktop/chat.py" line="223"/>
        <source>Delete conversation</source>
        <translation>Supprimer la conversation</translation>
    </message>
</context>
<context>
    <name>CoursePack</name>
    <message>
        <location filename="../../desktop/course_pack.py" line="20"/>
        <source>Lantern course packs ({pattern})</source>
        <translation>Packs de cours Lantern ({pattern})</translation>
    </message>
    <message>
        <location filename="../../desktop/course_pack.py" line="77"/>
        <location filename="../../desktop/course_pack.py" line="91"/>
        <source>Export course pack</source>
        <translation>Exporter un pack de cours</translation>
    </message>
    <message>
        <location filename="../../desktop/course_pack.py" line="89"/>
        <source>Writing the course pack…</source>
        <translation>Écriture du pack de cours…</translation>
    </message>
    <message>
        <location filename="../../desktop/course_pack.py" line="89"/>
        <source>Cancel</source>
        <translation>Annuler</translation>
    </message>
    <message>
        <location filename="../../desktop/course_pack.py" line="106"/>
        <source>Export cancelled: no pack was written.</source>
        <translation>Export annulé : aucun pack n&apos;a été écrit.</translation>
    </message>
    <message>
        <location filename="../../desktop/course_pack.py" line="110"/>
        <source>Wrote {name} ({size} MB, {n} book(s)).</source>
        <translation>{name} écrit ({size} Mo, {n} livre(s)).</translation>
    </message>
</context>
<context>
    <name>ExportPackDialog</name>
    <message>
        <location filename="../../desktop/course_pack.py" line="28"/>
        <source>Export course pack</source>
        <translation>Exporter un pack de cours</translation>
    </message>
    <message>
        <location filename="../../desktop/course_pack.py" line="31"/>
        <source>{title}  ({n} pages)</source>
        <translation>{title}  ({n} pages)</translation>
    </message>
    <message>
        <location filename="../../desktop/course_pack.py" line="39"/>
        <source>Still being indexed: it can go into a pack when its meaning search is complete.</source>
        <translation>Indexation en cours : il pourra aller dans un pack quand sa recherche par le sens sera terminée.</translation>
    </message>
    <message>
        <location filename="../../desktop/course_pack.py" line="42"/>
        <source>Include study sets (flashcards, lessons, chapter guides)</source>
        <translation>Inclure le matériel d&apos;étude (cartes, leçons, guides de chapitre)</translation>
    </message>
    <message>
        <location filename="../../desktop/course_pack.py" line="44"/>
        <source>Include my own progress (card reviews, quiz results, conversations)</source>
        <translation>Inclure ma propre progression (révisions de cartes, résultats de quiz, conversations)</translation>
    </message>
    <message>
        <location filename="../../desktop/course_pack.py" line="45"/>
        <source>Leave this off when the pack is for someone else.</source>
        <translation>Laisse cette case décochée si le pack est pour quelqu&apos;un d&apos;autre.</translation>
    </message>
    <message>
        <location filename="../../desktop/course_pack.py" line="46"/>
        <source>The pack holds the book files and their finished index: another computer opens them in seconds, without importing or indexing again.</source>
        <translation>Le pack contient les fichiers des livres et leur index terminé : un autre ordinateur les ouvre en quelques secondes, sans les importer ni les indexer à nouveau.</translation>
    </message>
    <message>
        <location filename="../../desktop/course_pack.py" line="50"/>
        <source>Export…</source>
        <translation>Exporter…</translation>
    </message>
    <message>
        <location filename="../../desktop/course_pack.py" line="56"/>
        <source>Books to put in the pack:</source>
        <translation>Livres à mettre dans le pack :</translation>
    </message>
</context>
<context>
    <name>Import</name>
    <message>
        <location filename="../../desktop/import_panel.py" line="24"/>
        <source>Reading</source>
        <translation>Lecture</translation>
    </message>
    <message>
        <location filename="../../desktop/import_panel.py" line="25"/>
        <source>Reading pages</source>
        <translation>Lecture des pages</translation>
    </message>
    <message>
        <location filename="../../desktop/import_panel.py" line="26"/>
        <source>Reading scanned pages (OCR)</source>
        <translation>Lecture des pages numérisées (OCR)</translation>
    </message>
    <message>
        <location filename="../../desktop/import_panel.py" line="27"/>
        <source>Cutting into passages</source>
        <translation>Découpage en passages</translation>
    </message>
    <message>
        <location filename="../../desktop/import_panel.py" line="28"/>
        <source>Indexing meaning</source>
        <translation>Indexation du sens</translation>
    </message>
    <message>
        <location filename="../../desktop/import_panel.py" line="29"/>
        <source>Saving</source>
        <translation>Enregistrement</translation>
    </message>
    <message>
        <location filename="../../desktop/import_panel.py" line="30"/>
        <source>Checking the course pack</source>
        <translation>Vérification du pack de cours</translation>
    </message>
    <message>
        <location filename="../../desktop/import_panel.py" line="31"/>
        <source>Adding books</source>
        <translation>Ajout des livres</translation>
    </message>
    <message>
        <location filename="../../desktop/import_panel.py" line="49"/>
        <source>under a minute left</source>
        <translation>moins d&apos;une minute restante</translation>
    </message>
    <message>
        <location filename="../../desktop/import_panel.py" line="52"/>
        <source>about {minutes} min left</source>
        <translation>environ {minutes} min restantes</translation>
    </message>
    <message>
        <location filename="../../desktop/import_panel.py" line="53"/>
        <source>about {hours} h left</source>
        <translation>environ {hours} h restantes</translation>
    </message>
</context>
<context>
    <name>ImportPanel</name>
    <message>
        <location filename="../../desktop/import_panel.py" line="176"/>
        <source>Imports</source>
        <translation>Importations</translation>
    </message>
    <message>
        <location filename="../../desktop/import_panel.py" line="177"/>
        <source>Clear finished</source>
        <translation>Effacer les terminées</translation>
    </message>
</context>
<context>
    <name>ImportRow</name>
    <message>
        <location filename="../../desktop/import_panel.py" line="80"/>
        <source>Waiting…</source>
        <translation>En attente…</translation>
    </message>
    <message>
        <location filename="../../desktop/import_panel.py" line="87"/>
        <source>Cancel</source>
        <translation>Annuler</translation>
    </message>
    <message>
        <location filename="../../desktop/import_panel.py" line="112"/>
        <source>Ready to ask (keyword search) · {progress}</source>
        <translation>Prêt pour tes questions (recherche par mots-clés) · {progress}</translation>
    </message>
    <message>
        <location filename="../../desktop/import_panel.py" line="124"/>
        <source>{n} pages</source>
        <translation>{n} pages</translation>
    </message>
    <message>
        <location filename="../../desktop/import_panel.py" line="125"/>
        <source>{n} sections</source>
        <translation>{n} sections</translation>
    </message>
    <message>
        <location filename="../../desktop/import_panel.py" line="126"/>
        <source>✓ Imported “{title}” ({size}, {chapters} chapters)</source>
        <translation>✓ « {title} » importé ({size}, {chapters} chapitres)</translation>
    </message>
    <message>
        <location filename="../../desktop/import_panel.py" line="129"/>
        <source>Searchable by keyword. {reason}</source>
        <translation>Consultable par mots-clés. {reason}</translation>
    </message>
    <message>
        <location filename="../../desktop/import_panel.py" line="131"/>
        <source>Already in your library: {reason}</source>
        <translation>Déjà dans ta bibliothèque : {reason}</translation>
    </message>
    <message>
        <location filename="../../desktop/import_panel.py" line="133"/>
        <source>Cancelled — nothing was added.</source>
        <translation>Annulé — rien n&apos;a été ajouté.</translation>
    </message>
    <message>
        <location filename="../../desktop/import_panel.py" line="135"/>
        <source>This file could not be imported.</source>
        <translation>Ce fichier n&apos;a pas pu être importé.</translation>
    </message>
    <message>
        <location filename="../../desktop/import_panel.py" line="148"/>
        <source>✓ Added {titles} with its index, ready to ask</source>
        <translation>✓ {titles} ajouté avec son index, prêt pour tes questions</translation>
    </message>
    <message>
        <location filename="../../desktop/import_panel.py" line="149"/>
        <source>✓ Added {titles} with their index, ready to ask</source>
        <translation>✓ {titles} ajoutés avec leur index, prêts pour tes questions</translation>
    </message>
    <message>
        <location filename="../../desktop/import_panel.py" line="152"/>
        <source>already in your library (left as they are): {titles}</source>
        <translation>déjà dans ta bibliothèque (laissés tels quels) : {titles}</translation>
    </message>
    <message>
        <location filename="../../desktop/import_panel.py" line="155"/>
        <source>The course pack holds no books.</source>
        <translation>Le pack de cours ne contient aucun livre.</translation>
    </message>
    <message>
        <location filename="../../desktop/import_panel.py" line="164"/>
        <source>Cancelling…</source>
        <translation>Annulation…</translation>
    </message>
</context>
<context>
    <name>Importing</name>
    <message>
        <location filename="../../desktop/importing.py" line="31"/>
        <source>Books and course packs ({patterns})</source>
        <translation>Livres et packs de cours ({patterns})</translation>
    </message>
    <message>
        <location filename="../../desktop/importing.py" line="32"/>
        <source>All files (*)</source>
        <translation>Tous les fichiers (*)</translation>
    </message>
    <message>
        <location filename="../../desktop/importing.py" line="82"/>
        <source>Import books</source>
        <translation>Importer des livres</translation>
    </message>
    <message>
        <location filename="../../desktop/importing.py" line="95"/>
        <source>Open course pack</source>
        <translation>Ouvrir un pack de cours</translation>
    </message>
    <message>
        <location filename="../../desktop/importing.py" line="106"/>
        <source>Import a book first: a course pack holds books of your library.</source>
        <translation>Importe d&apos;abord un livre : un pack de cours contient des livres de ta bibliothèque.</translation>
    </message>
    <message>
        <location filename="../../desktop/importing.py" line="125"/>
        <source>Added {n} book(s) from the course pack; ask away.</source>
        <translation>Livres ajoutés depuis le pack de cours : {n} ; pose tes questions.</translation>
    </message>
    <message>
        <location filename="../../desktop/importing.py" line="134"/>
        <source>The sample book is missing from this installation.</source>
        <translation>Le livre d&apos;exemple manque dans cette installation.</translation>
    </message>
    <message>
        <location filename="../../desktop/importing.py" line="143"/>
        <source>You can ask about “{title}” now (keyword search); meaning search is being built.</source>
        <translation>Tu peux déjà poser des questions sur « {title} » (recherche par mots-clés) ; la recherche par le sens est en préparation.</translation>
    </message>
    <message>
        <location filename="../../desktop/importing.py" line="154"/>
        <source>Imported “{title}”.</source>
        <translation>« {title} » importé.</translation>
    </message>
    <message>
        <location filename="../../desktop/importing.py" line="166"/>
        <source>Remove book</source>
        <translation>Retirer le livre</translation>
    </message>
    <message>
        <location filename="../../desktop/importing.py" line="167"/>
        <source>Remove “{title}” and its index from the library? The original file is not touched.</source>
        <translation>Retirer « {title} » et son index de la bibliothèque ? Le fichier d&apos;origine n&apos;est pas modifié.</translation>
    </message>
</context>
<context>
    <name>LibraryCheck</name>
    <message>
        <location filename="../../desktop/library_check.py" line="50"/>
        <source>Library check</source>
        <translation>Vérification de la bibliothèque</translation>
    </message>
    <message>
        <location filename="../../desktop/library_check.py" line="54"/>
        <source>Your library is healthy.</source>
        <translation>Ta bibliothèque est en bon état.</translation>
    </message>
    <message>
        <location filename="../../desktop/library_check.py" line="55"/>
        <source>Your library was repaired.</source>
        <translation>Ta bibliothèque a été réparée.</translation>
    </message>
    <message>
        <location filename="../../desktop/library_check.py" line="58"/>
        <source>Lantern found problems in your library. Your books are not lost.</source>
        <translation>Lantern a trouvé des problèmes dans ta bibliothèque. Tes livres ne sont pas perdus.</translation>
    </message>
    <message>
        <location filename="../../desktop/library_check.py" line="62"/>
        <source>Repair</source>
        <translation>Réparer</translation>
    </message>
    <message>
        <location filename="../../desktop/library_check.py" line="64"/>
        <source>Later</source>
        <translation>Plus tard</translation>
    </message>
</context>
<context>
    <name>LibraryModel</name>
    <message>
        <location filename="../../desktop/library_view.py" line="52"/>
        <source>Book / chapter / section</source>
        <translation>Livre / chapitre / section</translation>
    </message>
    <message>
        <location filename="../../desktop/library_view.py" line="52"/>
        <source>Pages</source>
        <translation>Pages</translation>
    </message>
    <message>
        <location filename="../../desktop/library_view.py" line="66"/>
        <source>{n} pages</source>
        <translation>{n} pages</translation>
    </message>
    <message>
        <location filename="../../desktop/library_view.py" line="67"/>
        <source>{n} sections</source>
        <translation>{n} sections</translation>
    </message>
    <message>
        <location filename="../../desktop/library_view.py" line="68"/>
        <source>written in {language}</source>
        <translation>écrit en {language}</translation>
    </message>
    <message>
        <location filename="../../desktop/library_view.py" line="71"/>
        <source>{count} · keyword search only</source>
        <translation>{count} · recherche par mots seulement</translation>
    </message>
    <message>
        <location filename="../../desktop/library_view.py" line="72"/>
        <source>Searchable by keyword now; searching by meaning is being built and is used chapter by chapter as it is ready.</source>
        <translation>Déjà consultable par mots ; la recherche par le sens est en construction et sert chapitre par chapitre dès qu&apos;elle est prête.</translation>
    </message>
</context>
<context>
    <name>LibrarySidebar</name>
    <message>
        <location filename="../../desktop/library_view.py" line="134"/>
        <source>Your library is empty</source>
        <translation>Ta bibliothèque est vide</translation>
    </message>
    <message>
        <location filename="../../desktop/library_view.py" line="136"/>
        <source>Drop a textbook here (PDF, EPUB, Markdown, text or HTML), or import one. Everything stays on this computer.</source>
        <translation>Dépose un manuel ici (PDF, EPUB, Markdown, texte ou HTML), ou importes-en un. Tout reste sur cet ordinateur.</translation>
    </message>
    <message>
        <location filename="../../desktop/library_view.py" line="139"/>
        <source>Try the sample book</source>
        <translation>Essayer le livre d&apos;exemple</translation>
    </message>
    <message>
        <location filename="../../desktop/library_view.py" line="142"/>
        <source>Import a book…</source>
        <translation>Importer un livre…</translation>
    </message>
    <message>
        <location filename="../../desktop/library_view.py" line="195"/>
        <source>Open in reader</source>
        <translation>Ouvrir dans le lecteur</translation>
    </message>
    <message>
        <location filename="../../desktop/library_view.py" line="196"/>
        <source>Ask about this book</source>
        <translation>Poser une question sur ce livre</translation>
    </message>
    <message>
        <location filename="../../desktop/library_view.py" line="199"/>
        <source>Remove from library…</source>
        <translation>Retirer de la bibliothèque…</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../../desktop/main_window.py" line="104"/>
        <source>Chat</source>
        <translation>Discussion</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="105"/>
        <source>Study</source>
        <translation>Étude</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="120"/>
        <source>&amp;File</source>
        <translation>&amp;Fichier</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="121"/>
        <source>&amp;Import books…</source>
        <translation>&amp;Importer des livres…</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="123"/>
        <source>&amp;Open course pack…</source>
        <translation>&amp;Ouvrir un pack de cours…</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="124"/>
        <source>&amp;Export course pack…</source>
        <translation>&amp;Exporter un pack de cours…</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="125"/>
        <source>Try the &amp;sample book</source>
        <translation>Essayer le &amp;livre d&apos;exemple</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="127"/>
        <source>&amp;Settings…</source>
        <translation>&amp;Paramètres…</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="129"/>
        <source>&amp;Quit</source>
        <translation>&amp;Quitter</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="130"/>
        <source>&amp;Ask</source>
        <translation>&amp;Demander</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="131"/>
        <source>&amp;Question box</source>
        <translation>Zone de &amp;question</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="132"/>
        <source>&amp;Stop answer</source>
        <translation>&amp;Arrêter la réponse</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="135"/>
        <source>&amp;Copy answer</source>
        <translation>&amp;Copier la réponse</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="136"/>
        <source>&amp;New conversation</source>
        <translation>&amp;Nouvelle conversation</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="138"/>
        <source>&amp;Reader</source>
        <translation>&amp;Lecteur</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="139"/>
        <source>&amp;Find in book…</source>
        <translation>&amp;Rechercher dans le livre…</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="140"/>
        <source>&amp;Help</source>
        <translation>&amp;Aide</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="141"/>
        <source>Check &amp;library…</source>
        <translation>&amp;Vérifier la bibliothèque…</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="142"/>
        <source>&amp;About Lantern</source>
        <translation>À &amp;propos de Lantern</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="156"/>
        <source>Offline ✓</source>
        <translation>Hors ligne ✓</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="164"/>
        <source>Lantern never uses the network: your books and questions stay here.</source>
        <translation>Lantern n&apos;utilise jamais le réseau : tes livres et tes questions restent ici.</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="174"/>
        <source>Chosen model file: {file}</source>
        <translation>Fichier de modèle choisi : {file}</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="177"/>
        <source> — unavailable, answers quote the book</source>
        <translation> — indisponible, les réponses citent le livre</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="179"/>
        <source>Model: {engine}</source>
        <translation>Modèle : {engine}</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="263"/>
        <source>Could not find the section “{name}”.</source>
        <translation>Section « {name} » introuvable.</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="352"/>
        <source>About Lantern</source>
        <translation>À propos de Lantern</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="353"/>
        <source>&lt;b&gt;Lantern&lt;/b&gt; — an offline tutor for your own textbooks.&lt;br&gt;Answers cite chapter, section and page. Licensed AGPL-3.0-or-later.</source>
        <translation>&lt;b&gt;Lantern&lt;/b&gt; — un tuteur hors ligne pour tes propres manuels.&lt;br&gt;Les réponses citent chapitre, section et page. Licence AGPL-3.0-or-later.</translation>
    </message>
</context>
<context>
    <name>ModelChoice</name>
    <message>
        <location filename="../../desktop/model_choice.py" line="157"/>
        <source>Runs {model}.</source>
        <translation>Utilise {model}.</translation>
    </message>
    <message>
        <location filename="../../desktop/model_choice.py" line="159"/>
        <source>The computer has been busy, so the models are not measured yet: Lantern measures them when it is idle and then runs the most correct one that answers in time.</source>
        <translation>L&apos;ordinateur a été occupé, donc les modèles ne sont pas encore mesurés : Lantern les mesure quand il est inactif, puis utilise le plus correct qui répond à temps.</translation>
    </message>
    <message>
        <location filename="../../desktop/model_choice.py" line="163"/>
        <source>The models are measured on this computer when it is idle (after imports and answers).</source>
        <translation>Les modèles sont mesurés sur cet ordinateur quand il est inactif (après les importations et les réponses).</translation>
    </message>
    <message>
        <location filename="../../desktop/model_choice.py" line="167"/>
        <source>Runs {model}: it {reason}</source>
        <translation>Utilise {model} : {model} {reason}</translation>
    </message>
    <message>
        <location filename="../../desktop/model_choice.py" line="169"/>
        <source>Runs {model}: {reason}</source>
        <translation>Utilise {model} : {reason}</translation>
    </message>
</context>
<context>
    <name>ReaderWidget</name>
    <message>
        <location filename="../../desktop/reader.py" line="222"/>
        <source>Fit</source>
        <translation>Ajuster</translation>
    </message>
    <message>
        <location filename="../../desktop/reader.py" line="222"/>
        <source>Fit page width</source>
        <translation>Ajuster à la largeur de la page</translation>
    </message>
    <message>
        <location filename="../../desktop/reader.py" line="227"/>
        <source>Find</source>
        <translation>Chercher</translation>
    </message>
    <message>
        <location filename="../../desktop/reader.py" line="227"/>
        <source>Find in this book (Ctrl+F)</source>
        <translation>Chercher dans ce livre (Ctrl+F)</translation>
    </message>
</context>
<context>
    <name>Scope</name>
    <message>
        <location filename="../../desktop/protocols.py" line="44"/>
        <source>All books</source>
        <translation>Tous les livres</translation>
    </message>
    <message>
        <location filename="../../desktop/protocols.py" line="45"/>
        <source>One book</source>
        <translation>Un livre</translation>
    </message>
</context>
<context>
    <name>ScopeBar</name>
    <message>
        <location filename="../../desktop/scope_bar.py" line="58"/>
        <location filename="../../desktop/scope_bar.py" line="141"/>
        <location filename="../../desktop/scope_bar.py" line="162"/>
        <source>All chapters</source>
        <translation>Tous les chapitres</translation>
    </message>
    <message>
        <location filename="../../desktop/scope_bar.py" line="58"/>
        <source>Only these chapters</source>
        <translation>Seulement ces chapitres</translation>
    </message>
    <message>
        <location filename="../../desktop/scope_bar.py" line="63"/>
        <source>Pages</source>
        <translation>Pages</translation>
    </message>
    <message>
        <location filename="../../desktop/scope_bar.py" line="71"/>
        <source>Ask in:</source>
        <translation>Interroger :</translation>
    </message>
    <message>
        <location filename="../../desktop/scope_bar.py" line="85"/>
        <source>All books</source>
        <translation>Tous les livres</translation>
    </message>
    <message>
        <location filename="../../desktop/scope_bar.py" line="162"/>
        <source>Ch. </source>
        <translation>Chap. </translation>
    </message>
</context>
<context>
    <name>Settings</name>
    <message>
        <location filename="../../desktop/settings.py" line="71"/>
        <source>bundled default</source>
        <translation>modèle fourni par défaut</translation>
    </message>
    <message>
        <location filename="../../desktop/settings.py" line="76"/>
        <source>CPU only</source>
        <translation>CPU seulement</translation>
    </message>
    <message>
        <location filename="../../desktop/settings.py" line="78"/>
        <source>GPU when present</source>
        <translation>GPU si présent</translation>
    </message>
    <message>
        <location filename="../../desktop/settings.py" line="80"/>
        <source>GPU layers {n}</source>
        <translation>{n} couches sur le GPU</translation>
    </message>
    <message>
        <location filename="../../desktop/settings.py" line="82"/>
        <source>auto threads</source>
        <translation>threads automatiques</translation>
    </message>
    <message>
        <location filename="../../desktop/settings.py" line="84"/>
        <source>1 thread</source>
        <translation>1 thread</translation>
    </message>
    <message>
        <location filename="../../desktop/settings.py" line="86"/>
        <source>{n} threads</source>
        <translation>{n} threads</translation>
    </message>
    <message>
        <location filename="../../desktop/settings.py" line="110"/>
        <source>Best — the most correct model, however slow</source>
        <translation>Qualité maximale — le modèle le plus correct, même s&apos;il est lent</translation>
    </message>
    <message>
        <location filename="../../desktop/settings.py" line="111"/>
        <source>Balanced — the most correct model that answers in time here</source>
        <translation>Équilibre — le modèle le plus correct qui répond à temps sur cet ordinateur</translation>
    </message>
    <message>
        <location filename="../../desktop/settings.py" line="112"/>
        <source>Fastest — the quickest answers</source>
        <translation>Rapidité maximale — les réponses les plus rapides</translation>
    </message>
    <message>
        <location filename="../../desktop/settings.py" line="119"/>
        <source>The model file {path} does not exist.</source>
        <translation>Le fichier de modèle {path} n&apos;existe pas.</translation>
    </message>
    <message>
        <location filename="../../desktop/settings.py" line="124"/>
        <source>The model file {path} cannot be read: {reason}.</source>
        <translation>Le fichier de modèle {path} ne peut pas être lu : {reason}.</translation>
    </message>
    <message>
        <location filename="../../desktop/settings.py" line="127"/>
        <source>{name} is not a GGUF model file (Lantern runs llama.cpp models saved as .gguf).</source>
        <translation>{name} n&apos;est pas un fichier de modèle GGUF (Lantern exécute des modèles llama.cpp enregistrés en .gguf).</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <location filename="../../desktop/settings.py" line="136"/>
        <source>Lantern settings</source>
        <translation>Paramètres de Lantern</translation>
    </message>
    <message>
        <location filename="../../desktop/settings.py" line="149"/>
        <source>Chosen for this computer (bundled models)</source>
        <translation>Choisi pour cet ordinateur (modèles fournis)</translation>
    </message>
    <message>
        <location filename="../../desktop/settings.py" line="150"/>
        <source>A .gguf file:</source>
        <translation>Un fichier .gguf :</translation>
    </message>
    <message>
        <location filename="../../desktop/settings.py" line="154"/>
        <source>/path/to/model.gguf</source>
        <translation>/chemin/vers/modele.gguf</translation>
    </message>
    <message>
        <location filename="../../desktop/settings.py" line="155"/>
        <location filename="../../desktop/settings.py" line="165"/>
        <source>Choose…</source>
        <translation>Choisir…</translation>
    </message>
    <message>
        <location filename="../../desktop/settings.py" line="159"/>
        <source>automatic</source>
        <translation>automatique</translation>
    </message>
    <message>
        <location filename="../../desktop/settings.py" line="161"/>
        <source>all layers (GPU when present)</source>
        <translation>toutes les couches (GPU si présent)</translation>
    </message>
    <message>
        <location filename="../../desktop/settings.py" line="162"/>
        <source>0 = CPU only; -1 = every layer on the GPU when this build and computer have one (the CPU otherwise)</source>
        <translation>0 = CPU seulement ; -1 = toutes les couches sur le GPU quand cette version et cet ordinateur en ont un (sinon le CPU)</translation>
    </message>
    <message>
        <location filename="../../desktop/settings.py" line="164"/>
        <source>default folder</source>
        <translation>dossier par défaut</translation>
    </message>
    <message>
        <location filename="../../desktop/settings.py" line="167"/>
        <source>Explain beyond the book (such answers are labelled)</source>
        <translation>Expliquer au-delà du livre (ces réponses sont signalées)</translation>
    </message>
    <message>
        <location filename="../../desktop/settings.py" line="170"/>
        <source>Answer quality:</source>
        <translation>Qualité des réponses :</translation>
    </message>
    <message>
        <location filename="../../desktop/settings.py" line="172"/>
        <source>Model:</source>
        <translation>Modèle :</translation>
    </message>
    <message>
        <location filename="../../desktop/settings.py" line="174"/>
        <source>Threads:</source>
        <translation>Threads :</translation>
    </message>
    <message>
        <location filename="../../desktop/settings.py" line="175"/>
        <source>GPU layers:</source>
        <translation>Couches GPU :</translation>
    </message>
    <message>
        <location filename="../../desktop/settings.py" line="176"/>
        <source>Library folder:</source>
        <translation>Dossier de la bibliothèque :</translation>
    </message>
    <message>
        <location filename="../../desktop/settings.py" line="177"/>
        <source>A new library folder is used the next time Lantern starts.</source>
        <translation>Un nouveau dossier de bibliothèque est utilisé au prochain démarrage de Lantern.</translation>
    </message>
    <message>
        <location filename="../../desktop/settings.py" line="204"/>
        <source>Choose a model</source>
        <translation>Choisir un modèle</translation>
    </message>
    <message>
        <location filename="../../desktop/settings.py" line="205"/>
        <source>GGUF models (*.gguf);;All files (*)</source>
        <translation>Modèles GGUF (*.gguf);;Tous les fichiers (*)</translation>
    </message>
    <message>
        <location filename="../../desktop/settings.py" line="211"/>
        <source>Choose the library folder</source>
        <translation>Choisir le dossier de la bibliothèque</translation>
    </message>
</context>
<context>
    <name>SourceCards</name>
    <message>
        <location filename="../../desktop/transcript.py" line="233"/>
        <location filename="../../desktop/transcript.py" line="245"/>
        <source>Sources</source>
        <translation>Sources</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="245"/>
        <source>Sources — none yet</source>
        <translation>Sources — aucune pour l’instant</translation>
    </message>
</context>
<context>
    <name>Study</name>
    <message>
        <location filename="../../desktop/study_tabs.py" line="36"/>
        <source>Your answer</source>
        <translation>Ta réponse</translation>
    </message>
    <message>
        <location filename="../../desktop/study_tabs.py" line="38"/>
        <source>Check my answer</source>
        <translation>Vérifier ma réponse</translation>
    </message>
    <message>
        <location filename="../../desktop/study_tabs.py" line="39"/>
        <source>More like this</source>
        <translation>Exercices similaires</translation>
    </message>
    <message>
        <location filename="../../desktop/study_tabs.py" line="40"/>
        <source>Go to the next chapter</source>
        <translation>Passer au chapitre suivant</translation>
    </message>
    <message>
        <location filename="../../desktop/study_tabs.py" line="71"/>
        <source>Show answer</source>
        <translation>Afficher la réponse</translation>
    </message>
    <message>
        <location filename="../../desktop/study_tabs.py" line="72"/>
        <source>Open its page</source>
        <translation>Ouvrir sa page</translation>
    </message>
    <message>
        <location filename="../../desktop/study_tabs.py" line="74"/>
        <source>Review all of this chapter&apos;s cards</source>
        <translation>Réviser toutes les cartes de ce chapitre</translation>
    </message>
    <message>
        <location filename="../../desktop/study_tabs.py" line="76"/>
        <source>Again</source>
        <translation>À revoir</translation>
    </message>
    <message>
        <location filename="../../desktop/study_tabs.py" line="76"/>
        <source>Hard</source>
        <translation>Difficile</translation>
    </message>
    <message>
        <location filename="../../desktop/study_tabs.py" line="77"/>
        <source>Good</source>
        <translation>Correct</translation>
    </message>
    <message>
        <location filename="../../desktop/study_tabs.py" line="77"/>
        <source>Easy</source>
        <translation>Facile</translation>
    </message>
    <message>
        <location filename="../../desktop/study_tabs.py" line="79"/>
        <source>Export to Anki…</source>
        <translation>Exporter vers Anki…</translation>
    </message>
    <message>
        <location filename="../../desktop/study_tabs.py" line="109"/>
        <source>Make a quiz</source>
        <translation>Créer un quiz</translation>
    </message>
    <message>
        <location filename="../../desktop/study_tabs.py" line="110"/>
        <source>Cancel</source>
        <translation>Annuler</translation>
    </message>
    <message>
        <location filename="../../desktop/study_tabs.py" line="112"/>
        <source>Take the saved quiz</source>
        <translation>Faire le quiz enregistré</translation>
    </message>
    <message>
        <location filename="../../desktop/study_tabs.py" line="114"/>
        <source>The quiz last made for this chapter, here or by a teacher (a course pack)</source>
        <translation>Le dernier quiz créé pour ce chapitre, ici ou par un enseignant (un pack de cours)</translation>
    </message>
    <message>
        <location filename="../../desktop/study_tabs.py" line="120"/>
        <source>Make a quiz on this chapter: every answer is checked against the book.</source>
        <translation>Crée un quiz sur ce chapitre : chaque réponse est vérifiée dans le livre.</translation>
    </message>
    <message>
        <location filename="../../desktop/study_tabs.py" line="126"/>
        <source>Type the missing term, then press Enter</source>
        <translation>Tapez le terme manquant, puis appuyez sur Entrée</translation>
    </message>
    <message>
        <location filename="../../desktop/study_tabs.py" line="128"/>
        <source>Check</source>
        <translation>Vérifier</translation>
    </message>
    <message>
        <location filename="../../desktop/study_tabs.py" line="129"/>
        <source>Next question</source>
        <translation>Question suivante</translation>
    </message>
    <message>
        <location filename="../../desktop/study_tabs.py" line="135"/>
        <source>Questions</source>
        <translation>Questions</translation>
    </message>
    <message>
        <location filename="../../desktop/study_quiz.py" line="25"/>
        <source>Reading chapter {chapter}…</source>
        <translation>Lecture du chapitre {chapter}…</translation>
    </message>
    <message>
        <location filename="../../desktop/study_quiz.py" line="32"/>
        <source>the model</source>
        <translation>le modèle</translation>
    </message>
    <message>
        <location filename="../../desktop/study_quiz.py" line="33"/>
        <source>writing questions with {model}</source>
        <translation>écriture des questions avec {model}</translation>
    </message>
    <message>
        <location filename="../../desktop/study_quiz.py" line="67"/>
        <source>Take the saved quiz ({n})</source>
        <translation>Faire le quiz enregistré ({n})</translation>
    </message>
    <message>
        <location filename="../../desktop/study_quiz.py" line="75"/>
        <source>The quiz saved for this chapter: {n} questions, written by {generator}.</source>
        <translation>Le quiz enregistré pour ce chapitre : {n} questions, écrites par {generator}.</translation>
    </message>
    <message>
        <location filename="../../desktop/study_quiz.py" line="76"/>
        <source>The quiz saved for this chapter: {n} questions.</source>
        <translation>Le quiz enregistré pour ce chapitre : {n} questions.</translation>
    </message>
    <message>
        <location filename="../../desktop/study_quiz.py" line="84"/>
        <source>{stage} — {done} of {total} ready…</source>
        <translation>{stage} — {done} sur {total} prêtes…</translation>
    </message>
    <message>
        <location filename="../../desktop/study_quiz.py" line="86"/>
        <source>{stage}…</source>
        <translation>{stage}…</translation>
    </message>
    <message>
        <location filename="../../desktop/study_quiz.py" line="90"/>
        <source>No quiz: {error}</source>
        <translation>Pas de quiz : {error}</translation>
    </message>
    <message>
        <location filename="../../desktop/study_quiz.py" line="115"/>
        <source>Question {n} is being written from the book…</source>
        <translation>La question {n} est en cours d&apos;écriture à partir du livre…</translation>
    </message>
    <message>
        <location filename="../../desktop/study_quiz.py" line="117"/>
        <source>The first question is being written from the book…</source>
        <translation>La première question est en cours d&apos;écriture à partir du livre…</translation>
    </message>
    <message>
        <location filename="../../core/study/render.py" line="48"/>
        <source>Chapter {number}: {title}</source>
        <translation>Chapitre {number} : {title}</translation>
    </message>
    <message>
        <location filename="../../core/study/render.py" line="83"/>
        <source>True or false</source>
        <translation>Vrai ou faux</translation>
    </message>
    <message>
        <location filename="../../core/study/render.py" line="84"/>
        <source>Code</source>
        <translation>Code</translation>
    </message>
    <message>
        <location filename="../../core/study/render.py" line="84"/>
        <source>Fill in the blank</source>
        <translation>Texte à trous</translation>
    </message>
    <message>
        <location filename="../../core/study/render.py" line="85"/>
        <source>Multiple choice</source>
        <translation>Choix multiple</translation>
    </message>
    <message>
        <location filename="../../core/study/render.py" line="95"/>
        <source>Not quite: the answer is {answer}.</source>
        <translation>Pas tout à fait : la réponse est {answer}.</translation>
    </message>
    <message>
        <location filename="../../core/study/render.py" line="96"/>
        <source>Right!</source>
        <translation>Juste !</translation>
    </message>
    <message>
        <location filename="../../core/study/render.py" line="106"/>
        <source>Your score: {right} of {total}</source>
        <translation>Ton score : {right} sur {total}</translation>
    </message>
    <message>
        <location filename="../../core/study/render.py" line="108"/>
        <source>({count} not answered)</source>
        <translation>({count} sans réponse)</translation>
    </message>
    <message>
        <location filename="../../core/study/render.py" line="111"/>
        <source>All right.</source>
        <translation>Tout juste.</translation>
    </message>
    <message>
        <location filename="../../core/study/render.py" line="112"/>
        <source>The answer:</source>
        <translation>La réponse :</translation>
    </message>
    <message>
        <location filename="../../core/study/render.py" line="99"/>
        <location filename="../../core/study/render.py" line="112"/>
        <source>The book:</source>
        <translation>Le livre :</translation>
    </message>
    <message>
        <location filename="../../core/study/render.py" line="51"/>
        <source>You should be able to</source>
        <translation>Tu devrais savoir</translation>
    </message>
    <message>
        <location filename="../../core/study/render.py" line="63"/>
        <source>Try this:</source>
        <translation>Essaie ceci :</translation>
    </message>
    <message>
        <location filename="../../core/study/render.py" line="66"/>
        <source>Summary</source>
        <translation>Résumé</translation>
    </message>
    <message>
        <location filename="../../core/study/render.py" line="71"/>
        <source>Key terms</source>
        <translation>Termes clés</translation>
    </message>
    <message>
        <location filename="../../core/study/render.py" line="89"/>
        <source>type the missing term</source>
        <translation>tapez le terme manquant</translation>
    </message>
    <message>
        <location filename="../../core/study/render.py" line="115"/>
        <source>To review:</source>
        <translation>À revoir :</translation>
    </message>
    <message>
        <location filename="../../core/study/render.py" line="123"/>
        <source>Try a longer chapter, or read this one in the Guide tab.</source>
        <translation>Essaie un chapitre plus long, ou lis celui-ci dans l&apos;onglet Guide.</translation>
    </message>
    <message>
        <location filename="../../core/study/render.py" line="124"/>
        <source>No questions.</source>
        <translation>Aucune question.</translation>
    </message>
    <message>
        <location filename="../../core/study/render.py" line="126"/>
        <source>multiple choice</source>
        <translation>à choix multiple</translation>
    </message>
    <message>
        <location filename="../../core/study/render.py" line="127"/>
        <source>true/false</source>
        <translation>vrai/faux</translation>
    </message>
    <message>
        <location filename="../../core/study/render.py" line="128"/>
        <source>code</source>
        <translation>de code</translation>
    </message>
    <message>
        <location filename="../../core/study/render.py" line="128"/>
        <source>fill in the blank</source>
        <translation>à trous</translation>
    </message>
    <message>
        <location filename="../../core/study/render.py" line="130"/>
        <source>{n} question</source>
        <translation>{n} question</translation>
    </message>
    <message>
        <location filename="../../core/study/render.py" line="131"/>
        <source>{n} questions</source>
        <translation>{n} questions</translation>
    </message>
    <message>
        <location filename="../../core/study/render.py" line="132"/>
        <source>{count} ({kinds}), every answer checked against the book</source>
        <translation>{count} ({kinds}), chaque réponse vérifiée dans le livre</translation>
    </message>
    <message>
        <location filename="../../core/study/render.py" line="134"/>
        <source>, in {seconds} s</source>
        <translation>, en {seconds} s</translation>
    </message>
    <message>
        <location filename="../../core/study/render.py" line="146"/>
        <source>made from the book&apos;s text; the answer is the book&apos;s</source>
        <translation>tiré du texte du livre ; la réponse est celle du livre</translation>
    </message>
    <message>
        <location filename="../../core/study/render.py" line="147"/>
        <source>the book&apos;s exercise (the book prints its answer)</source>
        <translation>exercice du livre (le livre donne sa réponse)</translation>
    </message>
    <message>
        <location filename="../../core/study/render.py" line="148"/>
        <source>the book&apos;s exercise</source>
        <translation>exercice du livre</translation>
    </message>
    <message>
        <location filename="../../core/study/render.py" line="163"/>
        <source>Correct</source>
        <translation>Juste</translation>
    </message>
    <message>
        <location filename="../../core/study/render.py" line="163"/>
        <source>Partly</source>
        <translation>En partie</translation>
    </message>
    <message>
        <location filename="../../core/study/render.py" line="164"/>
        <source>Incorrect</source>
        <translation>Faux</translation>
    </message>
    <message>
        <location filename="../../core/study/render.py" line="164"/>
        <source>Unchecked</source>
        <translation>Non vérifié</translation>
    </message>
    <message>
        <location filename="../../core/study/render.py" line="172"/>
        <source>No practice in chapter {chapter}.</source>
        <translation>Pas d&apos;exercices pour le chapitre {chapter}.</translation>
    </message>
    <message>
        <location filename="../../core/study/render.py" line="173"/>
        <source>{n} item</source>
        <translation>{n} exercice</translation>
    </message>
    <message>
        <location filename="../../core/study/render.py" line="173"/>
        <source>{n} items</source>
        <translation>{n} exercices</translation>
    </message>
    <message>
        <location filename="../../core/study/render.py" line="175"/>
        <source>Chapter {chapter} has no exercises, so here is {items} made from its text; every answer is the book&apos;s own.</source>
        <translation>Le chapitre {chapter} n&apos;a pas d&apos;exercices : voici {items} tiré de son texte ; chaque réponse est celle du livre.</translation>
    </message>
    <message>
        <location filename="../../core/study/render.py" line="177"/>
        <source>Chapter {chapter} has no exercises, so here are {items} made from its text; every answer is the book&apos;s own.</source>
        <translation>Le chapitre {chapter} n&apos;a pas d&apos;exercices : voici {items} tirés de son texte ; chaque réponse est celle du livre.</translation>
    </message>
    <message>
        <location filename="../../core/study/render.py" line="179"/>
        <source>{n} exercise from the book</source>
        <translation>{n} exercice du livre</translation>
    </message>
    <message>
        <location filename="../../core/study/render.py" line="180"/>
        <source>{n} exercises from the book</source>
        <translation>{n} exercices du livre</translation>
    </message>
    <message>
        <location filename="../../core/study/render.py" line="182"/>
        <source>{items} made from its text, answers from the book</source>
        <translation>{items} tirés de son texte, réponses du livre</translation>
    </message>
</context>
<context>
    <name>StudyPanel</name>
    <message>
        <location filename="../../desktop/study.py" line="69"/>
        <source>Book</source>
        <translation>Livre</translation>
    </message>
    <message>
        <location filename="../../desktop/study.py" line="71"/>
        <source>Chapter</source>
        <translation>Chapitre</translation>
    </message>
    <message>
        <location filename="../../desktop/study.py" line="74"/>
        <source>Practice</source>
        <translation>Exercices</translation>
    </message>
    <message>
        <location filename="../../desktop/study.py" line="75"/>
        <source>Cards</source>
        <translation>Cartes</translation>
    </message>
    <message>
        <location filename="../../desktop/study.py" line="76"/>
        <source>Quiz</source>
        <translation>Quiz</translation>
    </message>
    <message>
        <location filename="../../desktop/study.py" line="77"/>
        <source>Guide</source>
        <translation>Guide</translation>
    </message>
    <message>
        <location filename="../../desktop/study.py" line="159"/>
        <source>, quiz {score}</source>
        <translation>, quiz {score}</translation>
    </message>
    <message>
        <location filename="../../desktop/study.py" line="161"/>
        <source>practised {done}/{exercises}{quiz}, cards due {due}/{cards}, asked {asked}</source>
        <translation>exercices faits {done}/{exercises}{quiz}, cartes à revoir {due}/{cards}, questions posées {asked}</translation>
    </message>
    <message>
        <location filename="../../desktop/study.py" line="215"/>
        <source>Reading chapter {chapter} for exercises and practice…</source>
        <translation>Recherche d&apos;exercices dans le chapitre {chapter}…</translation>
    </message>
    <message>
        <location filename="../../desktop/study.py" line="228"/>
        <source>It has no exercises, and {size}: too little to practise on.</source>
        <translation>Il n&apos;a pas d&apos;exercices, et {size} : trop peu pour s&apos;exercer.</translation>
    </message>
    <message>
        <location filename="../../desktop/study.py" line="240"/>
        <source>Nothing to practise in this chapter. Try the next chapter, or ask the tutor about it in the Chat tab.</source>
        <translation>Rien à travailler dans ce chapitre. Essaie le chapitre suivant, ou interroge le tuteur à son sujet dans l&apos;onglet Discussion.</translation>
    </message>
    <message>
        <location filename="../../desktop/study.py" line="261"/>
        <source>Type your answer first, then check it against the book.</source>
        <translation>Écris d&apos;abord ta réponse, puis vérifie-la dans le livre.</translation>
    </message>
    <message>
        <location filename="../../desktop/study.py" line="264"/>
        <source>Checking your answer against the book…</source>
        <translation>Vérification de ta réponse dans le livre…</translation>
    </message>
    <message>
        <location filename="../../desktop/study.py" line="293"/>
        <source>Practice like {label}; change the chapter to see all again.</source>
        <translation>Exercices similaires à {label} ; change de chapitre pour tout revoir.</translation>
    </message>
    <message>
        <location filename="../../desktop/study.py" line="301"/>
        <source>Making cards from chapter {chapter}…</source>
        <translation>Création des cartes du chapitre {chapter}…</translation>
    </message>
    <message>
        <location filename="../../desktop/study.py" line="314"/>
        <source>1 card</source>
        <translation>1 carte</translation>
    </message>
    <message>
        <location filename="../../desktop/study.py" line="314"/>
        <source>{n} cards</source>
        <translation>{n} cartes</translation>
    </message>
    <message>
        <location filename="../../desktop/study.py" line="327"/>
        <source>{cards} to review ({total} in this chapter); the back of each is the book&apos;s own words, “Open its page” shows where.</source>
        <translation>À réviser : {cards} ({total} dans ce chapitre) ; le verso de chacune reprend les mots du livre, « Ouvrir sa page » montre où.</translation>
    </message>
    <message>
        <location filename="../../desktop/study.py" line="329"/>
        <source>{cards} due ({total} in this chapter); the back of each is the book&apos;s own words, “Open its page” shows where.</source>
        <translation>À revoir maintenant : {cards} ({total} dans ce chapitre) ; le verso de chacune reprend les mots du livre, « Ouvrir sa page » montre où.</translation>
    </message>
    <message>
        <location filename="../../desktop/study.py" line="335"/>
        <source>No cards due: all {cards} of this chapter are scheduled (next on {date}).</source>
        <translation>Aucune carte à revoir : toutes celles de ce chapitre ({cards}) sont planifiées (prochaine le {date}).</translation>
    </message>
    <message>
        <location filename="../../desktop/study.py" line="336"/>
        <source>No cards due: all {cards} of this chapter are scheduled.</source>
        <translation>Aucune carte à revoir : toutes celles de ce chapitre ({cards}) sont planifiées.</translation>
    </message>
    <message>
        <location filename="../../desktop/study.py" line="338"/>
        <source>Nothing to review now.</source>
        <translation>Rien à réviser pour l&apos;instant.</translation>
    </message>
    <message>
        <location filename="../../desktop/study.py" line="340"/>
        <source>No cards: this chapter has no definitions, key terms or code examples to make cards from. Try the next chapter or the Guide.</source>
        <translation>Pas de cartes : ce chapitre n&apos;a ni définitions, ni termes clés, ni exemples de code pour en faire. Essaie le chapitre suivant ou le Guide.</translation>
    </message>
    <message>
        <location filename="../../desktop/study.py" line="372"/>
        <source>Export cards</source>
        <translation>Exporter les cartes</translation>
    </message>
    <message>
        <location filename="../../desktop/study.py" line="373"/>
        <source>Anki package (*.apkg);;CSV (*.csv)</source>
        <translation>Paquet Anki (*.apkg);;CSV (*.csv)</translation>
    </message>
    <message>
        <location filename="../../desktop/study.py" line="384"/>
        <source>Exported {cards} to {path} (book, chapter, section and page as fields and tags)</source>
        <translation>Export terminé : {cards} dans {path} (livre, chapitre, section et page comme champs et étiquettes)</translation>
    </message>
    <message>
        <location filename="../../desktop/study.py" line="394"/>
        <source>This book has no numbered chapters.</source>
        <translation>Ce livre n&apos;a pas de chapitres numérotés.</translation>
    </message>
    <message>
        <location filename="../../desktop/study.py" line="396"/>
        <source>Choosing the key sentences of chapter {chapter}…</source>
        <translation>Choix des phrases clés du chapitre {chapter}…</translation>
    </message>
    <message>
        <location filename="../../desktop/study.py" line="406"/>
        <source>This chapter has no sentences that read well on their own; open it in the reader instead.</source>
        <translation>Ce chapitre n&apos;a pas de phrases qui se lisent bien seules ; ouvre-le plutôt dans le lecteur.</translation>
    </message>
    <message>
        <location filename="../../desktop/study.py" line="409"/>
        <source>{sections}, {sentences} and {terms} — all in the book&apos;s own words; click a page to read it, “Try this” to practise.</source>
        <translation>{sections}, {sentences} et {terms} — tout avec les mots du livre ; clique sur une page pour la lire, sur « Essaie ceci » pour t&apos;exercer.</translation>
    </message>
    <message>
        <location filename="../../desktop/study.py" line="411"/>
        <source>1 section</source>
        <translation>1 section</translation>
    </message>
    <message>
        <location filename="../../desktop/study.py" line="411"/>
        <source>{n} sections</source>
        <translation>{n} sections</translation>
    </message>
    <message>
        <location filename="../../desktop/study.py" line="412"/>
        <source>1 key sentence</source>
        <translation>1 phrase clé</translation>
    </message>
    <message>
        <location filename="../../desktop/study.py" line="412"/>
        <source>{n} key sentences</source>
        <translation>{n} phrases clés</translation>
    </message>
    <message>
        <location filename="../../desktop/study.py" line="413"/>
        <source>1 key term</source>
        <translation>1 terme clé</translation>
    </message>
    <message>
        <location filename="../../desktop/study.py" line="413"/>
        <source>{n} key terms</source>
        <translation>{n} termes clés</translation>
    </message>
</context>
<context>
    <name>Transcript</name>
    <message>
        <location filename="../../desktop/transcript.py" line="57"/>
        <source>Source {n} was not provided</source>
        <translation>La source {n} n&apos;a pas été fournie</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="71"/>
        <source>English</source>
        <translation>anglais</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="72"/>
        <source>Spanish</source>
        <translation>espagnol</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="72"/>
        <source>French</source>
        <translation>français</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="73"/>
        <source>German</source>
        <translation>allemand</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="73"/>
        <source>Portuguese</source>
        <translation>portugais</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="74"/>
        <source>Chinese</source>
        <translation>chinois</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="93"/>
        <source>Your book cannot say what your own program does</source>
        <translation>Ton livre ne peut pas dire ce que fait ton propre programme</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="95"/>
        <source>No source supports this sentence</source>
        <translation>Aucune source n&apos;appuie cette phrase</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="112"/>
        <source>Translating the quotes…</source>
        <translation>Traduction des citations…</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="115"/>
        <source>Show the quotes in {language}</source>
        <translation>Afficher les citations en {language}</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="117"/>
        <source>The quotes in {language} (translated; the book&apos;s own words are on the chips):</source>
        <translation>Les citations en {language} (traduites ; les mots du livre sont sur les pastilles) :</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="128"/>
        <source>You:</source>
        <translation>Toi :</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="128"/>
        <source>From the book:</source>
        <translation>D&apos;après le livre :</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="129"/>
        <source>Searching your books…</source>
        <translation>Recherche dans tes livres…</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="141"/>
        <source>Lantern:</source>
        <translation>Lantern :</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="146"/>
        <source>Nearest sections:</source>
        <translation>Sections les plus proches :</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="150"/>
        <source>Stopped.</source>
        <translation>Arrêté.</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="152"/>
        <source>The answer failed.</source>
        <translation>La réponse a échoué.</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="157"/>
        <source>Quoted from your book (no chat model is loaded).</source>
        <translation>Cité de ton livre (aucun modèle de discussion n&apos;est chargé).</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="159"/>
        <source>Includes explanation beyond the book.</source>
        <translation>Contient des explications qui vont au-delà du livre.</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="161"/>
        <source>Translated into {language} from the {source} answer checked against your book.</source>
        <translation>Traduit en {language} à partir de la réponse en {source} vérifiée dans ton livre.</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="164"/>
        <source>In {language}:</source>
        <translation>En {language} :</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="168"/>
        <source>Checking each sentence against your book…</source>
        <translation>Vérification de chaque phrase dans votre livre…</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="171"/>
        <source>Found by keyword search only: {titles} is still being indexed for meaning search.</source>
        <translation>Trouvé par mots seulement : {titles} est encore en cours d&apos;indexation pour la recherche par le sens.</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="173"/>
        <source>Found by keyword search only: {titles} are still being indexed for meaning search.</source>
        <translation>Trouvé par mots seulement : {titles} sont encore en cours d&apos;indexation pour la recherche par le sens.</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="184"/>
        <source>Ask a question about your books. Answers cite the chapter, section and page; click a citation to open the page.</source>
        <translation>Pose une question sur tes livres. Les réponses citent le chapitre, la section et la page ; clique sur une citation pour ouvrir la page.</translation>
    </message>
</context>
</TS>
